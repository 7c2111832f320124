"""The async API: the same operations over playwright.async_api."""

from __future__ import annotations

import asyncio
import threading

import pytest

from sentience_sdk import aio


def test_async_api_end_to_end(site):
    async def main():
        async with await aio.launch(trust=[site.url]) as browser:
            page = browser.page
            await page.goto(f"{site.url}/demo/login.html")
            snap = await aio.snapshot(page)
            assert snap.elements[0].role in ("textbox", "button", "link")
            assert "Log in" in await aio.format(page, max_tokens=100)
            await aio.type_text(page, await aio.find(page, "role=textbox text~user"), "carol")
            await aio.type_text(page, await aio.find(page, "role=textbox text~password"), "pw")
            assert (await aio.click(page, await aio.find(page, "role=button text~'log in'"))).outcome == "navigated"
            await aio.expect(page).to_have("role=link text~'log out'")
            with pytest.raises(AssertionError, match="failed: waited"):
                await aio.expect(page, timeout=0.2).to_have("role=button text=Nope")
            await page.goto(f"{site.url}/demo/checkout.html")
            asked = []

            async def approve(q):
                asked.append(q.text)
                return True

            async with aio.Agent(page, mode="careful", on_ask=approve) as agent:
                steps = [st async for st in agent.stream('Pay for the order with card "4242 4242 4242 4242"')]
            assert agent.last_result.ok and asked and steps[-1].kind == "finish"
            assert "confirmation.html" in page.url

    # Its own thread: the session's sync Playwright runs an event loop in this one.
    failure = []

    def thread():
        try:
            asyncio.run(main())
        except BaseException as e:  # re-raised below, in the test
            failure.append(e)

    t = threading.Thread(target=thread)
    t.start()
    t.join(180)
    assert not t.is_alive(), "the async test hung"
    if failure:
        raise failure[0]
