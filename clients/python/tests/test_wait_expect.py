"""wait_for and expect: passing and failing, with clear messages."""

from __future__ import annotations

import time

import pytest

import sentience_sdk as s


def test_wait_for_an_element_that_appears(page, site):
    page.goto(f"{site.url}/late.html")
    assert s.find(page, "text=Arrived") is None
    started = time.monotonic()
    found = s.wait_for(page, "role=button text=Arrived", timeout=5)
    assert [e.text for e in found] == ["Arrived"] and time.monotonic() - started < 4


def test_wait_for_times_out_with_the_pages_listing(page, site):
    page.goto(f"{site.url}/demo/index.html")
    with pytest.raises(s.WaitTimeout) as err:
        s.wait_for(page, "role=button text~'pay now'", timeout=0.5)
    message = str(err.value)
    assert "waited 0.5 s for an element matching \"role=button text~'pay now'\"" in message
    assert "/demo/index.html" in message and "Add to cart" in message


def test_wait_for_across_a_navigation(page, site):
    page.goto(f"{site.url}/demo/index.html")
    page.evaluate("() => setTimeout(() => { location.href = 'checkout.html'; }, 300)")
    found = s.wait_for(page, "role=button text~'pay now'", timeout=10)
    assert found[0].text == "Pay now"


def test_expect_passes_and_fails_clearly(page, site):
    page.goto(f"{site.url}/late.html")
    s.expect(page).to_have("role=button text=Arrived")
    s.expect(page).not_to_have("text=Going")
    assert len(s.expect(page).to_have("role=button", count=2)) == 2
    with pytest.raises(AssertionError) as err:
        s.expect(page, timeout=0.3).to_have("role=link text=Nowhere")
    assert str(err.value).startswith("expect(page).to_have('role=link text=Nowhere') failed: waited 0.3 s")
    assert "Stay" in str(err.value)
    with pytest.raises(AssertionError, match=r"not_to_have\('text=Stay'\) failed: .*1 still matched: #\d+ button 'Stay'"):
        s.expect(page, timeout=0.3).not_to_have("text=Stay")
    with pytest.raises(AssertionError, match=r"count=5\) failed: 2 matched"):
        s.expect(page).to_have("role=button", count=5)


def test_a_bad_query_is_not_a_timeout(page, site):
    page.goto(f"{site.url}/demo/index.html")
    with pytest.raises(s.QueryError):
        s.wait_for(page, "rol=button", timeout=2)
