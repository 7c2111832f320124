"""The Agent on the demo store, offline (the built-in planner of the
bundled `sentience serve`, or its LLM planner talking to a local fake of an
OpenAI-compatible endpoint), careful mode with approvals through the callback."""

from __future__ import annotations

import http.server
import json
import re
import threading
from typing import Any, Dict, List

import pytest

import sentience_sdk as s


def test_careful_run_pays_after_approval_through_the_callback(browser, site):
    page = browser.new_page(f"{site.url}/demo/checkout.html")
    questions = []
    streamed = []

    def approve(q: s.Question) -> bool:
        questions.append(q)
        return True

    with s.Agent(page, mode="careful", on_ask=approve) as agent:
        for step in agent.stream('Pay for the order with card "4242 4242 4242 4242"'):
            streamed.append(step)
        result = agent.last_result
    assert result.ok, f"{result.error} {[str(x) for x in result.steps]}"
    assert questions and all(q.security and "Security check" in q.text for q in questions)
    assert any("Pay now" in q.text for q in questions)
    assert result.questions == len(questions)
    assert "confirmation.html?card=4242" in page.url
    kinds = [x.kind for x in streamed]
    assert "ask" in kinds and "answer" in kinds and kinds[-1] == "finish"
    pay = [x for x in streamed if x.kind == "tool" and x.target == "Pay now"]
    assert pay and pay[0].result.success and "click" in str(pay[0])
    page.close()


def test_refusing_cancels_and_nothing_is_paid(browser, site):
    page = browser.new_page(f"{site.url}/demo/checkout.html")
    steps = []
    with s.Agent(page, mode="careful", on_ask=lambda q: False, on_step=steps.append) as agent:
        result = agent.run('Pay for the order with card "4242 4242 4242 4242"')
    assert result.status == "cancelled" and result.questions == 1
    assert "confirmation" not in page.url
    assert [x.kind for x in steps].count("ask") == 1
    page.close()


def test_the_demo_login_with_one_careful_approval_against_a_given_server(browser, site):
    """The demo store's log-in task, careful mode: exactly one security
    check (typing the password), approved through the callback; the run uses
    a server started apart (``server=``)."""
    server = s.agent.AgentServer()
    page = browser.new_page(f"{site.url}/demo/login.html")
    asked = []
    try:
        with s.Agent(page, server=server.url, mode="careful", on_ask=lambda q: asked.append(q.text) or True) as agent:
            result = agent.run('Log in as "alice" with password "s3cret"')
        assert result.ok, f"{result.error} {[str(x) for x in result.steps]}"
        assert asked == ["⚠️ Security check: Attempting to type a password into 'Password'. Proceed?"]
        assert "welcome.html?user=alice&password=s3cret" in page.url
        # The extension's settings are restored when the Agent closes.
        settings = browser.worker.evaluate("async () => (await chrome.storage.local.get('settings')).settings || null")
        assert settings is None or settings.get("serverUrl") != server.url
    finally:
        server.stop()
        page.close()


class FakeLlm:
    """An OpenAI-compatible chat-completions endpoint (the only fake: the
    remote model) that reads the page listing of the server's prompt and
    logs in: type the user name, the password, click "Log in", finish."""

    def __init__(self) -> None:
        self.requests: List[Dict[str, Any]] = []
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                fake.requests.append({"path": self.path, "auth": self.headers.get("authorization"), "body": body})
                name, args = fake.decide(body["messages"][-1]["content"])
                data = json.dumps({"id": "x", "object": "chat.completion", "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                    "role": "assistant", "content": None,
                    "tool_calls": [{"id": "c1", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]}}]}).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def decide(self, prompt: str) -> tuple:
        def id_of(pattern: str) -> str:
            m = re.search(r"^(\S+) " + pattern, prompt, re.M)
            assert m, f"{pattern} not in the prompt:\n{prompt}"
            return m.group(1)

        step = len(self.requests) - 1
        if "/welcome.html" in prompt:
            return "finish", {"result": "Logged in as alice"}
        if step == 0:
            return "type", {"id": id_of('textbox "Username"'), "text": "alice"}
        if step == 1:
            return "type", {"id": id_of('textbox "Password"'), "text": "s3cret"}
        return "click", {"id": id_of('button "Log in"')}

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_the_servers_llm_planner_logs_in_with_one_careful_approval(browser, site):
    """``llm=`` gives the Agent's own server an OpenAI-compatible model (here
    a local fake): the run is the model's choices, acted by the extension,
    with careful mode's one question (the password) through the callback."""
    llm = FakeLlm()
    page = browser.new_page(f"{site.url}/demo/login.html")
    asked = []
    try:
        with s.Agent(page, mode="careful", on_ask=lambda q: asked.append(q.text) or True,
                     llm={"base_url": llm.base_url, "api_key": "test-key", "model": "fake-1"}) as agent:
            result = agent.run('Log in as "alice" with password "s3cret"')
        assert result.ok and result.result == "Logged in as alice", f"{result.error} {[str(x) for x in result.steps]}"
        assert asked == ["⚠️ Security check: Attempting to type a password into 'Password'. Proceed?"]
        assert "welcome.html?user=alice&password=s3cret" in page.url
        assert len(llm.requests) == 4
        first = llm.requests[0]
        assert first["path"] == "/v1/chat/completions" and first["auth"] == "Bearer test-key" and first["body"]["model"] == "fake-1"
    finally:
        llm.close()
        page.close()


def test_a_server_that_cannot_start_says_why(tmp_path):
    broken = tmp_path / "sentience"
    broken.write_text("#!/bin/sh\necho 'error: --in-memory: no such option' >&2\nexit 2\n")
    broken.chmod(0o755)
    with pytest.raises(RuntimeError, match=r"did not start .*it said: error: --in-memory: no such option"):
        s.agent.AgentServer(binary=str(broken))
