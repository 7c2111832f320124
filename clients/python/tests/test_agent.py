"""The Agent on the demo store, offline (the built-in planner of the
bundled `sentience serve`), careful mode with approvals through the callback."""

from __future__ import annotations

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
