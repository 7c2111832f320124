"""Actions by element id on the demo store, hover, a cross-origin frame of
a trusted origin (and the same frame seen from an untrusted one),
annotated screenshots."""

from __future__ import annotations

import pytest

import sentience_sdk as s


def test_log_in_on_the_demo_store(page, site):
    page.goto(f"{site.url}/demo/login.html")
    assert s.type_text(page, s.find(page, "role=textbox text~user"), "alice").outcome in ("none", "dom_changed")
    assert s.type_text(page, s.find(page, "role=textbox text~password"), "s3cret")
    result = s.click(page, s.find(page, "role=button text~'log in'"))
    assert result.success and result.outcome == "navigated"
    assert "welcome.html?user=alice&password=s3cret" in page.url
    assert "Welcome, alice" in page.text_content("#msg")


def test_press_enter_submits_the_search(page, site):
    page.goto(f"{site.url}/demo/index.html")
    box = s.find(page, "role=searchbox")
    s.type_text(page, box, "rake").check()
    assert s.press(page, "Enter").outcome == "navigated"
    assert "search.html?q=rake" in page.url


def test_select_an_option(page, site):
    page.goto(f"{site.url}/pages/state.html")
    country = s.find(page, "role=combobox text=Country")
    assert s.select(page, country, "de").success
    assert s.find(page, "role=combobox text=Country").state.value == "Germany"
    bad = s.select(page, country, "Spain")
    assert not bad and "no option matching" in bad.error
    with pytest.raises(s.SentienceError, match="no option matching"):
        bad.check()


def test_scroll_and_hover(page, site):
    page.goto(f"{site.url}/hover.html")
    assert s.find(page, "text='Garden tools'") is None
    result = s.hover(page, s.find(page, "role=button text=Products"))
    assert result.success and result.outcome == "dom_changed"
    assert s.find(page, "text='Garden tools'") is not None
    far = s.find(page, "text='Far away'")
    assert not far.in_viewport
    assert s.scroll(page, far).success
    assert s.find(page, "text='Far away'").in_viewport
    assert s.scroll(page, dy=-5000).success
    assert s.find(page, "text='Far away'").in_viewport is False


def test_a_failed_action_says_why(page, site):
    page.goto(f"{site.url}/demo/index.html")
    result = s.click(page, 987654)
    assert not result.success and result.outcome == "none" and "987654" in result.error
    with pytest.raises(TypeError):
        s.click(page, "12")


def test_cross_origin_frame_of_a_trusted_origin(page, site):
    page.goto(f"{site.url}/frame.html")
    snap = s.snapshot(page)
    assert snap.frames is not None and [f.via for f in snap.frames.included] == ["message"]
    user = s.find(page, "role=textbox text~user")
    assert user is not None, s.format(page)
    s.type_text(page, user, "bob").check()
    s.type_text(page, s.find(page, "role=textbox text~password"), "hunter2").check()
    assert s.click(page, s.find(page, "role=button text~'log in'")).success
    frame = next(f for f in page.frames if f.parent_frame is not None)
    frame.wait_for_url("**/welcome.html**")
    assert "user=bob" in frame.url


def test_the_same_frame_from_an_untrusted_origin_is_skipped(page, site):
    page.goto(f"{site.other}/frame.html")
    snap = s.snapshot(page)
    assert [f.reason for f in snap.frames.skipped] == ["cross_origin"]
    assert s.find(page, "role=textbox") is None
    assert s.find(page, "text='Outer button'") is not None


def test_annotated_screenshot(page, site, tmp_path):
    page.goto(f"{site.url}/demo/index.html")
    plain = s.screenshot(page, annotate=False)
    shot = s.screenshot(page, str(tmp_path / "a.png"))
    assert shot.data[:8] == b"\x89PNG\r\n\x1a\n" and (tmp_path / "a.png").read_bytes() == shot.data
    assert shot.data != plain.data and len(shot.snapshot.elements) > 0
    # The boxes are gone afterwards.
    assert s.screenshot(page, annotate=False).data == plain.data
    jpeg = s.screenshot(page, format="jpeg", quality=50)
    assert jpeg.data[:2] == b"\xff\xd8"
