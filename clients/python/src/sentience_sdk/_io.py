"""Every operation is written once, as a generator that yields the I/O it
needs (``Eval``, ``Mouse``, ``Shot``, ``Sleep``) and returns its result; two
small drivers run it over Playwright's sync or async API. So the sync
package (``sentience_sdk``) and the async one (``sentience_sdk.aio``) share
every line of logic (and so does the browser-use adapter, whose driver,
adapters/_cdp.py, answers the same requests over a bare CDP connection),
and none of the logic is ours anyway: each operation is one call of
``window.sentience`` (docs/api.md), which the extension's engine answers.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Generator

from .errors import NavigatedError


@dataclass(frozen=True)
class Eval:
    """``page.evaluate(js, arg)``: a JSON text comes back (see _js.py)."""

    js: str
    arg: Any = None


@dataclass(frozen=True)
class Mouse:
    """``page.mouse.move(x, y)``: a real pointer move (hover)."""

    x: float
    y: float


@dataclass(frozen=True)
class Shot:
    """``page.screenshot(**options)``: PNG or JPEG bytes."""

    options: Any


@dataclass(frozen=True)
class Sleep:
    seconds: float


@dataclass(frozen=True)
class NewDocument:
    """After an action navigated: wait until the page is the next document
    (``_js.NEW_DOCUMENT`` over the answering document's ``doc``/``href``),
    then until it has loaded."""

    js: str
    arg: Any
    timeout_ms: float


@dataclass(frozen=True)
class Settle:
    """After a navigation: wait until the new document has the extension's
    API (so the page, and Playwright's ``page.url``, are the new
    document's), then until it has loaded."""

    timeout_ms: float


_READY = "() => typeof window.sentience === 'object' && window.sentience !== null"

Op = Generator[Any, Any, Any]

# Playwright's words for "the document this evaluate ran in is gone".
_GONE = ("Execution context was destroyed", "navigation", "Cannot find context with specified id", "frame got detached")


def _navigated(e: BaseException) -> bool:
    text = str(e)
    return any(g in text for g in _GONE)


def _sync_do(page: Any, req: Any) -> Any:
    if isinstance(req, Eval):
        return page.evaluate(req.js, req.arg)
    if isinstance(req, Mouse):
        return page.mouse.move(req.x, req.y)
    if isinstance(req, Shot):
        return page.screenshot(**req.options)
    if isinstance(req, Sleep):
        return time.sleep(req.seconds)
    if isinstance(req, NewDocument):
        page.wait_for_function(req.js, arg=req.arg, timeout=req.timeout_ms)
        return page.wait_for_load_state("load", timeout=req.timeout_ms)
    if isinstance(req, Settle):
        page.wait_for_function(_READY, timeout=req.timeout_ms)
        return page.wait_for_load_state("load", timeout=req.timeout_ms)
    raise TypeError(f"unknown request {req!r}")


async def _async_do(page: Any, req: Any) -> Any:
    if isinstance(req, Eval):
        return await page.evaluate(req.js, req.arg)
    if isinstance(req, Mouse):
        return await page.mouse.move(req.x, req.y)
    if isinstance(req, Shot):
        return await page.screenshot(**req.options)
    if isinstance(req, Sleep):
        return await asyncio.sleep(req.seconds)
    if isinstance(req, NewDocument):
        await page.wait_for_function(req.js, arg=req.arg, timeout=req.timeout_ms)
        return await page.wait_for_load_state("load", timeout=req.timeout_ms)
    if isinstance(req, Settle):
        await page.wait_for_function(_READY, timeout=req.timeout_ms)
        return await page.wait_for_load_state("load", timeout=req.timeout_ms)
    raise TypeError(f"unknown request {req!r}")


def run_sync(page: Any, op: Op) -> Any:
    """Runs an operation over Playwright's sync API."""
    try:
        req = next(op)
        while True:
            try:
                res = _sync_do(page, req)
            except Exception as e:  # handed to the operation, which decides
                req = op.throw(NavigatedError(str(e)) if _navigated(e) else e)
                continue
            req = op.send(res)
    except StopIteration as stop:
        return stop.value


async def drive_async(do: Callable[[Any], Awaitable[Any]], op: Op) -> Any:
    """Runs an operation with ``do`` answering each request (Playwright's
    async API here; a CDP connection in adapters/_cdp.py). What ``do``
    raises is handed to the operation, which decides."""
    try:
        req = next(op)
        while True:
            try:
                res = await do(req)
            except Exception as e:
                req = op.throw(e)
                continue
            req = op.send(res)
    except StopIteration as stop:
        return stop.value


async def run_async(page: Any, op: Op) -> Any:
    """Runs an operation over Playwright's async API."""

    async def do(req: Any) -> Any:
        try:
            return await _async_do(page, req)
        except Exception as e:
            raise NavigatedError(str(e)) if _navigated(e) else e

    return await drive_async(do, op)
