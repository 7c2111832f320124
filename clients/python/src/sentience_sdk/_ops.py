"""The operations, each written once as a generator over ``_io`` requests
(run by ``_io.run_sync`` / ``_io.run_async``). Each is one call of the
page's ``window.sentience`` (docs/api.md); what comes back is typed
(models.py) or turned into an exception with the extension's own message.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Dict, List, Literal, Optional, Union

from . import _js
from ._io import Eval, Mouse, NewDocument, Op, Settle, Shot, Sleep
from .errors import NavigatedError, NotAvailableError, QueryError, SentienceError, WaitTimeout
from .models import Element, Snapshot, SnapshotDiff

ElementRef = Union[int, Element]
Outcome = Literal["navigated", "dom_changed", "none"]


@dataclass(frozen=True)
class ActionResult:
    """What an action did (docs/api.md): ``success``, ``outcome``
    (``"navigated"``, ``"dom_changed"`` or ``"none"``) and, on failure, the
    extension's ``error``. True when it succeeded; ``check()`` raises
    ``SentienceError`` when it did not."""

    success: bool
    outcome: Outcome
    error: Optional[str] = None

    def __bool__(self) -> bool:
        return self.success

    def check(self) -> "ActionResult":
        """Returns self, or raises ``SentienceError`` with the error."""
        if not self.success:
            raise SentienceError(self.error or "the action failed")
        return self


@dataclass(frozen=True)
class Screenshot:
    """An annotated screenshot: the image (``data``, PNG or JPEG bytes) with
    a numbered box over each element of ``snapshot`` in the viewport."""

    data: bytes
    format: str
    snapshot: Snapshot

    def save(self, path: str) -> None:
        """Writes the image to ``path``."""
        with open(path, "wb") as f:
            f.write(self.data)


def _id(el: ElementRef) -> int:
    if isinstance(el, Element):
        return el.id
    if isinstance(el, bool) or not isinstance(el, int):
        raise TypeError(f"an element id (int) or an Element is needed, not {type(el).__name__}")
    return el


def _parse(text: Any) -> Dict[str, Any]:
    """The JSON text a script answered, with the unavailable case raised."""
    if not isinstance(text, str):
        raise SentienceError(f"unexpected answer from the page: {text!r}")
    value = json.loads(text)
    if isinstance(value, dict) and value.get("status") == "unavailable":
        raise NotAvailableError(
            f"window.sentience is not available on {value.get('url')}: the extension does not run on "
            "this page (not a web page, or the browser was started without the extension: use "
            "sentience_sdk.launch())"
        )
    return value


def _error(value: Dict[str, Any], what: str) -> SentienceError:
    message = str(value.get("error") or f"{what} failed")
    if "position" in value or message.startswith("invalid query"):
        return QueryError(message, value.get("position"))
    return SentienceError(message)


def _read(js: str, arg: Any) -> Op:
    """A read of the page; one that a navigation cut short is run again on
    the new document once it has loaded."""
    try:
        return _parse((yield Eval(js, arg)))
    except NavigatedError:
        yield Settle(10000)
        return _parse((yield Eval(js, arg)))


def _options(options: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    return options or None


def snapshot(options: Dict[str, Any]) -> Op:
    value = yield from _read(_js.SNAPSHOT, _options(options))
    if value.get("status") != "success":
        raise _error(value, "snapshot")
    return Snapshot(value)


def query(q: str, first: bool, fresh: bool, options: Dict[str, Any]) -> Op:
    if not isinstance(q, str):
        raise TypeError("a query is a string, e.g. \"role=button text~'sign in'\"")
    value = yield from _read(_js.QUERY, {"q": q, "first": first, "fresh": fresh, "options": _options(options)})
    status = value.get("status")
    if status == "none":
        return None
    if status != "success":
        raise _error(value, "query")
    if first:
        return Element(value["element"])
    return [Element(e) for e in value["elements"]]


def format_(max_tokens: int, fresh: bool, options: Dict[str, Any]) -> Op:
    if not isinstance(max_tokens, int) or max_tokens <= 0:
        raise ValueError("max_tokens must be a positive integer")
    value = yield from _read(_js.FORMAT, {"max_tokens": max_tokens, "fresh": fresh, "options": _options(options)})
    if value.get("status") != "success":
        raise _error(value, "format")
    return value["text"]


def diff(since: Optional[int], options: Dict[str, Any]) -> Op:
    opts = dict(options)
    if since is None:
        opts["diff"] = True
    else:
        opts["since"] = since
    snap = yield from snapshot(opts)
    d = snap.diff
    if d is None:  # the engine always answers one when asked
        raise SentienceError("the snapshot came back without a diff")
    return d, snap


def _action(js: str, arg: Dict[str, Any]) -> Op:
    try:
        value = _parse((yield Eval(js, arg)))
    except NavigatedError:
        # The page's promise died with its document: the action navigated
        # (docs/api.md: a page-world caller's promise dies with its page).
        # The new document has committed: wait until it has loaded.
        try:
            yield Settle(10000)
        except Exception:
            pass
        return ActionResult(True, "navigated")
    result = ActionResult(bool(value.get("success")), value.get("outcome") or "none", value.get("error"))
    if result.outcome == "navigated":
        # The page began to unload (or changed its URL): wait for the next
        # document, so the caller's next call (and page.url) sees it. A
        # navigation that never commits (a download, a 204) gives up quietly.
        try:
            yield NewDocument(_js.NEW_DOCUMENT, {"doc": value.get("doc"), "href": value.get("href")}, 10000)
        except Exception:
            pass
    return result


def click(el: ElementRef) -> Op:
    return (yield from _action(_js.CLICK, {"id": _id(el)}))


def type_text(el: ElementRef, text: str) -> Op:
    if not isinstance(text, str):
        raise TypeError("text must be a string")
    return (yield from _action(_js.TYPE, {"id": _id(el), "text": text}))


def select(el: ElementRef, value: str) -> Op:
    if not isinstance(value, str):
        raise TypeError("value must be a string (an option's value or text)")
    return (yield from _action(_js.SELECT, {"id": _id(el), "value": value}))


def press(key: str) -> Op:
    if not isinstance(key, str) or not key:
        raise TypeError('key must be a KeyboardEvent.key such as "Enter" or "a"')
    return (yield from _action(_js.PRESS, {"key": key}))


def scroll(el: Optional[ElementRef], dx: float, dy: float) -> Op:
    target: Any = {"dx": dx, "dy": dy} if el is None else _id(el)
    return (yield from _action(_js.SCROLL, {"target": target}))


def hover(el: ElementRef, frames: bool) -> Op:
    """A real pointer move to the element's centre (the extension's actions
    have no hover: Playwright's mouse does it, at the engine's bbox, which is
    in top-level coordinates, iframes included)."""
    ident = _id(el)
    try:
        value = _parse((yield Eval(_js.HOVER_LOCATE, {"id": ident, "frames": frames})))
    except NavigatedError:
        return ActionResult(False, "navigated", "hover: the page navigated before the pointer moved")
    if value.get("status") != "success":
        return ActionResult(False, "none", str(value.get("error")))
    box = value["bbox"]
    yield Mouse(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    return (yield from _action(_js.HOVER_OUTCOME, {"since": value.get("since"), "frames": frames}))


def _describe(q: str, present: bool) -> str:
    return f"an element matching {q!r}" if present else f"no element matching {q!r}"


def wait_for(q: str, timeout: float, present: bool, options: Dict[str, Any], interval: float = 0.1) -> Op:
    """Snapshots and queries in the page until ``q`` matches (or, with
    ``present=False``, matches nothing), across navigations, for at most
    ``timeout`` seconds."""
    if timeout < 0:
        raise ValueError("timeout must be ≥ 0 seconds")
    deadline = time.monotonic() + timeout
    while True:
        left_ms = max(0, int((deadline - time.monotonic()) * 1000))
        arg = {
            "q": q,
            "present": present,
            "timeout_ms": left_ms,
            "interval_ms": int(interval * 1000),
            "options": _options(options),
            "listing_tokens": 400,
        }
        try:
            value = _parse((yield Eval(_js.WAIT_FOR, arg)))
        except (NavigatedError, NotAvailableError):
            # A navigation (or the new document not ready yet): wait for it
            # and go on until the deadline.
            if time.monotonic() >= deadline:
                raise WaitTimeout(f"waited {timeout:g} s for {_describe(q, present)}: the page kept navigating")
            try:
                yield Settle(max(1.0, (deadline - time.monotonic()) * 1000))
            except Exception:
                yield Sleep(interval)
            continue
        status = value.get("status")
        if status == "success":
            return [Element(e) for e in value["elements"]]
        if status == "timeout":
            found = value.get("elements") or []
            if present:
                what = "nothing matched"
            else:
                ids = ", ".join(f"#{e['id']} {e['role']} {e.get('text')!r}" for e in found[:5])
                what = f"{len(found)} still matched: {ids}"
            raise WaitTimeout(
                f"waited {timeout:g} s for {_describe(q, present)} on {value.get('url')}: {what}.\n"
                f"The page's elements (most important first):\n{value.get('listing', '')}"
            )
        raise _error(value, "wait_for")


def screenshot(annotate: bool, image_format: str, quality: Optional[int], full_page: bool, options: Dict[str, Any]) -> Op:
    """A snapshot, its numbered boxes drawn on the page (the extension's
    overlay, which no page CSS can hide), Playwright's screenshot, the
    boxes cleared. Works in every scope and under strict CSPs."""
    if image_format not in ("png", "jpeg"):
        raise ValueError("format must be 'png' or 'jpeg'")
    snap = yield from snapshot(options)
    if annotate:
        shown = _parse((yield Eval(_js.SHOW_OVERLAY, {})))
        if shown.get("status") != "success":
            raise _error(shown, "showOverlay")
    shot: Dict[str, Any] = {"type": image_format, "full_page": full_page}
    if quality is not None and image_format == "jpeg":
        shot["quality"] = quality
    try:
        data = yield Shot(shot)
    finally:
        if annotate:
            yield Eval(_js.CLEAR_OVERLAY, None)
    return Screenshot(data, image_format, snap)
