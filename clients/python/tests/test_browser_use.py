"""The browser-use adapter: its actions on the demo store in browser-use's
own browser (Chromium with the packaged extension, driven over CDP), and a
browser-use Agent completing the demo log-in through them, its model a
scripted OpenAI-compatible server on a local port (remote models are the one
thing faked)."""

from __future__ import annotations

import asyncio
import atexit
import http.server
import json
import os
import re
import shutil
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, Iterator, List

import pytest

# browser-use reports usage, syncs to its cloud and asks the package
# registry for a newer release unless told not to: nothing here may reach
# the network. Its config, and the temporary profiles and download folders
# it leaves behind, go to a folder of this test run, removed at exit.
SCRATCH = tempfile.mkdtemp(prefix="sentience-browser-use-")
atexit.register(shutil.rmtree, SCRATCH, True)
os.environ["ANONYMIZED_TELEMETRY"] = "false"
os.environ["BROWSER_USE_CLOUD_SYNC"] = "false"
os.environ["BROWSER_USE_VERSION_CHECK"] = "false"
os.environ["BROWSER_USE_CONFIG_DIR"] = os.path.join(SCRATCH, "config")

_saved_tempdir, tempfile.tempdir = tempfile.tempdir, SCRATCH  # its import makes a download folder already
from browser_use import Agent, ChatOpenAI, Tools  # noqa: E402

from sentience_sdk.adapters.browser_use import BUILTIN_ELEMENT_ACTIONS, sentience_browser_session, sentience_tools  # noqa: E402

tempfile.tempdir = _saved_tempdir

CHROMIUM = os.environ.get("CHROMIUM") or None


class Browser:
    """One browser-use session for the direct tests, on an event loop in a
    thread of its own: the tests are plain functions, and Playwright's sync
    API (the other tests' browser) holds the main thread's loop."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.session = sentience_browser_session(executable_path=CHROMIUM, keep_alive=True)
        self.tools = sentience_tools(Tools())
        self.run(self.session.start())

    def run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(60)

    def act(self, name: str, **params: Any) -> Any:
        return self.run(getattr(self.tools, name)(browser_session=self.session, **params))

    def goto(self, url: str) -> None:
        self.run(self.session.navigate_to(url))

    def page_eval(self, expression: str) -> Any:
        """``expression`` in the page's own world, through browser-use's session."""

        async def go() -> Any:
            cdp = await self.session.get_or_create_cdp_session()
            r = await cdp.cdp_client.send.Runtime.evaluate(
                params={"expression": expression, "returnByValue": True, "awaitPromise": True}, session_id=cdp.session_id
            )
            return r["result"].get("value")

        return self.run(go())

    def url(self) -> str:
        return self.run(self.session.get_current_page_url())

    def close(self) -> None:
        try:
            self.run(self.session.kill())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            self.loop.close()


@pytest.fixture(scope="module", autouse=True)
def scratch_tempdir() -> Iterator[None]:
    saved, tempfile.tempdir = tempfile.tempdir, SCRATCH
    yield
    tempfile.tempdir = saved


@pytest.fixture(scope="module")
def bu() -> Iterator[Browser]:
    b = Browser()
    yield b
    b.close()


def ids(listing: str, role: str, text: str) -> List[int]:
    return [int(m) for m in re.findall(rf'^(\d+) {role} "{re.escape(text)}"', listing, re.M)]


def test_the_actions_are_registered_with_their_parameters():
    tools = sentience_tools(Tools(exclude_actions=list(BUILTIN_ELEMENT_ACTIONS)))
    actions = tools.registry.registry.actions
    ours = {n for n in actions if n.startswith("sentience_")}
    assert ours == {"sentience_snapshot", "sentience_find", "sentience_click", "sentience_type", "sentience_select", "sentience_press"}
    assert not set(BUILTIN_ELEMENT_ACTIONS) & set(actions) and "navigate" in actions and "done" in actions
    assert set(BUILTIN_ELEMENT_ACTIONS) <= set(Tools().registry.registry.actions)  # still browser-use's names
    fields = {n: set(actions[n].param_model.model_fields) for n in ours}
    assert fields["sentience_click"] == {"element_id"} and fields["sentience_type"] == {"element_id", "text"}
    assert fields["sentience_select"] == {"element_id", "value"} and fields["sentience_find"] == {"query"}
    assert fields["sentience_press"] == {"key"} and fields["sentience_snapshot"] == set()


def test_log_in_on_the_demo_store_with_each_action(bu, site):
    bu.goto(f"{site.url}/demo/login.html")
    snap = bu.act("sentience_snapshot")
    assert snap.error is None and snap.include_extracted_content_only_once
    listing = snap.extracted_content
    assert ids(listing, "textbox", "Username") and ids(listing, "button", "Log in"), listing
    assert "login.html" in snap.long_term_memory

    found = bu.act("sentience_find", query="role=textbox text~user")
    user = int(found.extracted_content.split()[0])
    assert found.extracted_content.startswith(f'{user} textbox "Username"') and user == ids(listing, "textbox", "Username")[0]
    typed = bu.act("sentience_type", element_id=user, text="alice")
    assert typed.error is None and typed.extracted_content == f"sentience_type 5 characters into {user}: ok (none)"
    password = ids(listing, "textbox", "Password")[0]
    typed = bu.act("sentience_type", element_id=password, text="s3cret")
    assert "s3cret" not in (typed.long_term_memory or "")  # a password stays out of the model's memory
    assert bu.page_eval("document.getElementById('username').value + '/' + document.getElementById('password').value") == "alice/s3cret"

    # Enter in the password field submits the form: the action waits for the next page.
    pressed = bu.act("sentience_press", key="Enter")
    assert pressed.extracted_content == "sentience_press Enter: ok (navigated)", pressed
    assert "welcome.html?user=alice" in bu.url()
    # The new document's elements, at once.
    assert ids(bu.act("sentience_snapshot").extracted_content, "link", "Log out")


def test_click_navigates_and_errors_come_back_as_the_actions_error(bu, site):
    bu.goto(f"{site.url}/demo/login.html")
    listing = bu.act("sentience_snapshot").extracted_content
    clicked = bu.act("sentience_click", element_id=ids(listing, "button", "Log in")[0])
    assert clicked.extracted_content.endswith("ok (navigated)") and "welcome.html" in bu.url()

    bad = bu.act("sentience_find", query="role=")
    assert bad.extracted_content is None and bad.error.startswith("sentience_find failed: invalid query")
    missing = bu.act("sentience_click", element_id=999999)
    assert missing.error.startswith("sentience_click 999999 failed:") and "999999" in missing.error[30:]
    assert bu.act("sentience_find", query="role=button text~'no such button'").extracted_content == "no element matches"


def test_select_an_option(bu, site):
    bu.goto(f"{site.url}/pages/choose.html")
    listing = bu.act("sentience_snapshot").extracted_content
    country = int(re.search(r'^(\d+) combobox "Country"', listing, re.M).group(1))
    chosen = bu.act("sentience_select", element_id=country, value="France")
    assert chosen.error is None and chosen.extracted_content.startswith(f"sentience_select 'France' in {country}: ok")
    assert bu.page_eval("document.getElementById('country').value") == "fr"
    refused = bu.act("sentience_select", element_id=country, value="Spain")
    assert 'no option matching "Spain"' in refused.error


def test_frames_of_other_origins_are_in_reach_with_no_origin_trusted(bu, site):
    """The actions run in the extension's world (the debugger's full
    scope), while a page script of this untrusted origin sees no
    cross-origin frame: the log-in form inside one is listed and typed into."""
    bu.goto(f"{site.url}/frame.html")
    page_view = bu.page_eval("window.sentience.snapshot().then((s) => JSON.stringify(s.elements.map((e) => e.text)))")
    assert "Username" not in json.loads(page_view)  # the page scope: the frame is skipped
    listing = bu.act("sentience_snapshot").extracted_content
    assert ids(listing, "button", "Outer button") and ids(listing, "textbox", "Username"), listing
    typed = bu.act("sentience_type", element_id=ids(listing, "textbox", "Username")[0], text="bob")
    assert typed.error is None, typed.error


def test_a_page_without_the_extension_says_so_at_once(bu):
    bu.goto("about:blank")
    result = bu.act("sentience_snapshot")
    assert "not active on about:blank" in result.error


# ------------------------------------------------------------ the Agent


class FakeModel:
    """An OpenAI-compatible chat-completions server answering browser-use's
    structured output with a script: a snapshot first, then the log-in read
    from the listing the action returned, then done. It reads only what the
    agent sent, so each step proves the previous action's result came back."""

    def __init__(self) -> None:
        self.requests: List[Dict[str, Any]] = []
        model = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                model.requests.append(body)
                out = json.dumps(
                    {
                        "id": f"fake-{len(model.requests)}",
                        "object": "chat.completion",
                        "created": 0,
                        "model": body.get("model"),
                        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": json.dumps(model.answer(body))}}],
                        "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
                    }
                ).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @staticmethod
    def _text(message: Dict[str, Any]) -> str:
        content = message.get("content")
        if isinstance(content, str):
            return content
        return "\n".join(p.get("text", "") for p in content or [] if isinstance(p, dict))

    def answer(self, body: Dict[str, Any]) -> Dict[str, Any]:
        state = self._text(body["messages"][-1])
        step = {"thinking": "", "evaluation_previous_goal": "", "memory": "", "next_goal": ""}
        if "welcome.html?user=alice" in state:
            return {**step, "action": [{"done": {"text": "Logged in as alice", "success": True}}]}
        user, password, button = (ids(state, "textbox", "Username"), ids(state, "textbox", "Password"), ids(state, "button", "Log in"))
        if user and password and button:
            return {
                **step,
                "action": [
                    {"sentience_type": {"element_id": user[0], "text": "alice"}},
                    {"sentience_type": {"element_id": password[0], "text": "s3cret"}},
                    {"sentience_click": {"element_id": button[0]}},
                ],
            }
        return {**step, "action": [{"sentience_snapshot": {}}]}

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_an_agent_logs_in_through_the_sentience_actions(site):
    model = FakeModel()

    async def run() -> Any:
        session = sentience_browser_session(executable_path=CHROMIUM)
        agent = Agent(
            task=f"Open {site.url}/demo/login.html and log in as alice with password s3cret",
            llm=ChatOpenAI(model="fake-model", base_url=model.url, api_key="test-key"),
            browser_session=session,
            tools=sentience_tools(Tools(exclude_actions=list(BUILTIN_ELEMENT_ACTIONS))),
            use_vision=False,
            use_judge=False,
            enable_planning=False,
            max_failures=1,
            enable_signal_handler=False,
        )
        try:
            return await agent.run(max_steps=5)
        finally:
            await session.kill()

    try:
        with ThreadPoolExecutor(1) as pool:  # a loop of its own (see Browser)
            history = pool.submit(asyncio.run, run()).result(120)
    finally:
        model.close()
    assert history.is_done() and history.is_successful(), history.errors()
    assert [n for step in history.model_actions() for n in step if n != "interacted_element"] == [
        "navigate", "sentience_snapshot", "sentience_type", "sentience_type", "sentience_click", "done",
    ]
    assert "welcome.html?user=alice" in history.urls()[-1]
    assert not any(history.errors())
    # The model was offered our actions, with their descriptions, and not browser-use's element ones.
    schema = json.dumps(model.requests[0].get("response_format") or {})
    assert "sentience_click" in schema and "sentience_snapshot" in schema and '"click"' not in schema
    assert len(model.requests) == 3
