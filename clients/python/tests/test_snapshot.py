"""launch, typed snapshots end to end, format, query/find, diff, strict CSP."""

from __future__ import annotations

import json
import re
import typing

import pytest

import sentience_sdk as s
from sentience_sdk import models

from conftest import PAGES

# A FIELDS tag (models.py) → the Python types a JSON value of it may have.
SCALARS = {"string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,)}


def check_view(view: models.View, where: str, problems: list) -> None:
    """Every key of the JSON object is a field of the model, and every field
    reads back with its declared type (recursively)."""
    cls = type(view)
    names = {name for name, _, _ in cls.FIELDS}
    for key in view.raw:
        if key not in names:
            problems.append(f"{where}: key {key!r} is not a field of {cls.__name__}")
    hints = {name: typing.get_type_hints(getattr(cls, name).fget, vars(models))["return"] for name in names}
    for name, tag, required in cls.FIELDS:
        if required and name not in view.raw:
            problems.append(f"{where}.{name}: required but absent")
        value = getattr(view, name)
        if name not in view.raw:
            if value is not None:
                problems.append(f"{where}.{name}: absent, but the model read {value!r}")
            continue
        check_value(value, tag, view.raw[name], f"{where}.{name}", hints[name], problems)


def check_value(value, tag: str, raw, where: str, hint, problems: list) -> None:
    if tag.startswith("nullable:"):
        if raw is None:
            if value is not None:
                problems.append(f"{where}: null read as {value!r}")
            return
        tag = tag[len("nullable:"):]
    if tag in SCALARS:
        if not isinstance(value, SCALARS[tag]) or (tag != "boolean" and isinstance(value, bool)):
            problems.append(f"{where}: {value!r} is not {tag}")
        if value != raw:
            problems.append(f"{where}: read {value!r}, JSON has {raw!r}")
    elif tag == "literal":
        allowed = [a for arg in typing.get_args(hint) for a in (typing.get_args(arg) or [arg])]
        if value not in allowed:
            problems.append(f"{where}: {value!r} is not one of {allowed}")
    elif tag.startswith("list:"):
        inner = tag[len("list:"):]
        if len(value) != len(raw):
            problems.append(f"{where}: {len(value)} items, JSON has {len(raw)}")
        for i, item in enumerate(value):
            if isinstance(item, models.View):
                check_view(item, f"{where}[{i}]", problems)
            else:
                check_value(item, inner, raw[i], f"{where}[{i}]", int, problems)
    else:  # a class
        if type(value).__name__ != tag:
            problems.append(f"{where}: {type(value).__name__} is not {tag}")
        else:
            check_view(value, where, problems)


def test_launch_loads_the_packaged_extension_and_trusts_the_origin(browser, site):
    assert browser.worker.url.endswith("/extension/service-worker.js")
    assert "site-packages" in s.extension_path()
    trusted = browser.worker.evaluate("async () => (await chrome.storage.local.get('trusted_origins')).trusted_origins")
    assert trusted == [site.url]
    # More origins merge with the list.
    assert browser.trust(["http://example.test:8080/path"]) == [site.url, "http://example.test:8080"]
    browser.worker.evaluate("(o) => chrome.storage.local.set({trusted_origins: o})", [site.url])
    with pytest.raises(ValueError, match="not an http"):
        browser.trust("javascript:alert(1)")


@pytest.mark.parametrize("fixture", ["state", "login", "labels", "card-grid"])
def test_snapshot_is_typed_end_to_end(page, site, fixture):
    page.goto(f"{site.url}/pages/{fixture}.html")
    snap = s.snapshot(page, diff=True, wait_for_stable={"quiet_ms": 50})
    assert isinstance(snap, models.Snapshot)
    problems: list = []
    check_view(snap, "snapshot", problems)
    assert problems == []
    assert snap.status == "success" and snap.url.endswith(f"/{fixture}.html")
    assert len(snap.elements) > 0 and snap.meta.stability is not None and snap.diff is not None
    # The fixture's expected elements (tests/pages/NAME.expected.json), read through the model.
    expected = json.loads((PAGES / f"{fixture}.expected.json").read_text())["expect"]
    for want in expected:
        hits = [e for e in snap.elements if e.role == want["role"] and e.text == want.get("text")]
        assert hits, f"no {want['role']} {want.get('text')!r} in {fixture}"
        if "state" in want:
            assert hits[0].state is not None and hits[0].state.raw == want["state"], f"{want}"


def test_state_reads_through_the_model(page, site):
    page.goto(f"{site.url}/pages/state.html")
    snap = s.snapshot(page)
    country = next(e for e in snap.elements if e.text == "Country")
    assert country.role == "combobox"
    assert country.state.value == "France"
    options = country.state.options
    assert [(o.text, o.value, o.selected) for o in options] == [("Germany", "de", False), ("France", "fr", True), ("Italy", "it", False)]
    assert isinstance(country.bbox, models.BBox) and country.bbox.width > 0
    assert isinstance(country.visual_cues.is_clickable, bool)


def test_bad_options_raise_the_extensions_message(page, site):
    page.goto(f"{site.url}/demo/index.html")
    with pytest.raises(s.SentienceError, match="unknown field `limt`"):
        s.snapshot(page, limt=3)


def test_limit_and_filter(page, site):
    page.goto(f"{site.url}/demo/index.html")
    snap = s.snapshot(page, limit=3, filter={"allowed_roles": ["button"]})
    assert len(snap.elements) == 3 and {e.role for e in snap.elements} == {"button"}
    assert snap.meta.truncated_by_limit >= 1


def test_format_stays_under_the_budget(page, site):
    page.goto(f"{site.url}/demo/index.html")
    full = s.format(page)
    small = s.format(page, max_tokens=40)
    assert "Search" in full and len(small) < len(full)
    # Each whitespace-separated word is at least one token.
    assert len(small.split()) <= 40
    assert re.search(r"more|left out|omitted", small), small
    with pytest.raises(ValueError):
        s.format(page, max_tokens=0)


def test_query_and_find(page, site):
    page.goto(f"{site.url}/demo/index.html")
    buttons = s.query(page, "role=button text~'add to cart'")
    assert len(buttons) == 3 and all(b.role == "button" for b in buttons)
    assert s.find(page, "role=searchbox").role == "searchbox"
    assert s.find(page, "role=button text='No such thing'") is None
    with pytest.raises(s.QueryError) as err:
        s.query(page, "role=")
    assert "invalid query" in str(err.value) and err.value.position == 5


def test_diff(page, site):
    page.goto(f"{site.url}/demo/index.html")
    first = s.snapshot(page)
    page.evaluate("() => document.querySelector('main').append(Object.assign(document.createElement('button'), {textContent: 'New'}))")
    d = s.diff(page)
    assert d.since == first.snapshot_id
    new = s.find(page, "text='New'")
    assert new.id in d.added and d.removed == []


def test_not_available_on_a_page_without_the_extension(page):
    page.goto("about:blank")
    with pytest.raises(s.NotAvailableError, match="not available on about:blank"):
        s.snapshot(page)


def test_strict_csp_page(page, site):
    page.goto(f"{site.url}/pages/strict.csp.html")
    snap = s.snapshot(page)
    assert snap.meta.engine_path == "service_worker"
    problems: list = []
    check_view(snap, "snapshot", problems)
    assert problems == []
    expected = json.loads((PAGES / "strict.csp.expected.json").read_text())["expect"]
    texts = {(e.role, e.text) for e in snap.elements}
    for want in expected:
        assert (want["role"], want.get("text")) in texts
    assert s.find(page, "role=button") is not None
    assert "button" in s.format(page, max_tokens=200)


def seen_fields(view: models.View, seen: set) -> None:
    cls = type(view)
    for name, _, _ in cls.FIELDS:
        if name not in view.raw:
            continue
        seen.add(f"{cls.__name__}.{name}")
        value = getattr(view, name)
        items = value if isinstance(value, models.ViewList) else [value]
        for item in items:
            if isinstance(item, models.View):
                seen_fields(item, seen)


def test_every_field_of_the_model_is_read_end_to_end(page, site):
    """Over the fixture pages, a framed page seen from a trusted and an
    untrusted origin, and a snapshot with a screenshot, every field of every
    class of the success model comes back from the extension and reads with
    its declared type: a field the engine stops sending, or sends under
    another name or type, fails here."""
    problems: list = []
    seen: set = set()
    runs = [(f"{site.url}/pages/{name}.html", {}) for name in ("state", "login", "labels", "card-grid")]
    runs += [(f"{site.url}/frame.html", {"screenshot": True}), (f"{site.other}/frame.html", {})]
    for url, options in runs:
        page.goto(url)
        snap = s.snapshot(page, diff=True, wait_for_stable={"quiet_ms": 50}, **options)
        check_view(snap, url, problems)
        seen_fields(snap, seen)
    assert problems == []
    classes = [getattr(models, n) for n in models.__all__]
    every = {
        f"{c.__name__}.{name}"
        for c in classes
        if isinstance(c, type) and issubclass(c, models.View) and c not in (models.View, models.SnapshotError)
        for name, _, _ in c.FIELDS
    }
    assert sorted(every - seen) == []
