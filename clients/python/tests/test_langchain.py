"""The LangChain adapter's tools, invoked as an agent would, on the demo store."""

from __future__ import annotations

import json

from sentience_sdk.adapters.langchain import sentience_tools


def test_tools_log_in_on_the_demo_store(page, site):
    page.goto(f"{site.url}/demo/login.html")
    tools = {t.name: t for t in sentience_tools(page)}
    assert set(tools) == {"snapshot", "find", "click", "type", "press"}
    assert "element_id" in tools["click"].args and "query" in tools["find"].args
    listing = tools["snapshot"].invoke({})
    assert 'textbox "Username"' in listing and 'button "Log in"' in listing
    user = json.loads(tools["find"].invoke({"query": "role=textbox text~user"}))[0]
    assert tools["type"].invoke({"element_id": user["id"], "text": "alice"}).startswith("ok")
    password = json.loads(tools["find"].invoke({"query": "role=textbox text~password"}))[0]
    assert tools["type"].invoke({"element_id": password["id"], "text": "s3cret"}).startswith("ok")
    assert tools["press"].invoke({"key": "Enter"}) == "ok (navigated)"
    assert "welcome.html?user=alice" in page.url
    # Errors are text the model can read, not exceptions.
    assert tools["find"].invoke({"query": "role="}).startswith("error: invalid query")
    assert tools["click"].invoke({"element_id": 999999}).startswith("failed:")
