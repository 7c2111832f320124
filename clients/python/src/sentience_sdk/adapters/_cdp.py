"""The SDK's operations (_ops.py) over a bare CDP connection, for browsers
that something other than Playwright drives (browser-use).

Each operation runs in the page's "Sentience" isolated world, the
extension's own, through ``SentienceTrusted.call(op, args)``: the debugger's
full scope of docs/api.md "Who may see and do what" (every frame, whatever
its origin), as the tool server's sessions get it
(crates/tool-server/src/browser/extension_world.rs). So no origin has to be
trusted: nothing is granted to page scripts.

The connection is our own (``cdp_use``, browser-use's CDP library), opened
for one operation and closed after it: its event handlers and sessions
never touch those of the framework that drives the browser, and nothing is
left open when that framework closes the browser. A connection, an attach
and ``Runtime.enable`` cost 10–17 ms an action (docs/benchmarks.md, "The
browser-use adapter"), next to an LLM step's seconds.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, Dict, Optional

from cdp_use.client import CDPClient

from .._io import Eval, NewDocument, Op, Settle, Sleep, drive_async
from ..errors import NavigatedError, NotAvailableError, SentienceError

# Chromium names a content script's isolated world after its extension
# (the manifest's "name").
WORLD = "Sentience"
# How long a page may take to show the extension's world (its content
# scripts run at document_start: only a page still committing takes long).
WORLD_TIMEOUT = 5.0
# What CDP answers when the document an evaluation ran in went away.
_GONE = ("Execution context was destroyed", "Cannot find context with specified id", "Inspected target navigated or closed")

# The scripts of _js.py call ``window.sentience`` (the page world's API,
# extension/content/main-world.js). Here ``window`` is a plain holder of the
# same methods over SentienceTrusted.call, in the full scope; the page's
# own window is not touched. A world without SentienceTrusted (the
# extension does not run on this document) answers "unavailable".
_API = (
    "{sentience: typeof SentienceTrusted === 'undefined' ? undefined : (() => { const c = (op, args) => SentienceTrusted.call(op, args); return {"
    "snapshot: (o) => c('snapshot', o === undefined ? null : o), "
    "click: (id) => c('click', {id}), "
    "type: (id, text) => c('type', {id, text}), "
    "press: (key) => c('press', {key}), "
    "select: (id, value) => c('select', {id, value}), "
    "scroll: (t) => c('scroll', typeof t === 'object' && t !== null ? {dx: t.dx, dy: t.dy} : {id: t}), "
    "query: (q) => c('query', {query: q}), "
    "find: (q) => c('find', {query: q}), "
    "format: (o) => c('format', {snapshot: null, max_tokens: o && o.max_tokens !== undefined ? o.max_tokens : null}), "
    "}; })()}"
)

_LOADED = "document.readyState === 'complete'"


def script(js: str, arg: Any) -> str:
    """One of _js.py's functions applied to ``arg``, in the extension's world."""
    return f"(async (window) => ({js})({json.dumps(arg)}))({_API})"


# Pages the extension's content scripts run in (manifest.json: <all_urls>).
_WEB = ("http://", "https://", "file://")


def _unavailable(url: str) -> str:
    return (
        f"the Sentience extension is not active on {url}: extensions do not run on about: or chrome: "
        "pages, and the browser must be started with the extension (sentience_sdk.adapters.browser_use."
        "sentience_browser_session(), or --load-extension of sentience_sdk.extension_path())"
    )


def _gone(text: str) -> bool:
    return any(g in text for g in _GONE)


class ExtensionWorld:
    """A CDP connection attached to one page target, following the
    extension's world in its main frame across navigations (each new
    document announces a new one)."""

    def __init__(self, client: CDPClient, session_id: str, target_id: str) -> None:
        self._client = client
        self._session = session_id
        self._target = target_id
        self._context: Optional[int] = None
        self._changed = asyncio.Event()

    @classmethod
    async def open(cls, ws_url: str, target_id: str) -> "ExtensionWorld":
        client = CDPClient(ws_url)
        await client.start()
        try:
            attached = await client.send.Target.attachToTarget(params={"targetId": target_id, "flatten": True})
            world = cls(client, attached["sessionId"], target_id)
            client.register.Runtime.executionContextCreated(world._created)
            client.register.Runtime.executionContextDestroyed(world._destroyed)
            client.register.Runtime.executionContextsCleared(world._cleared)
            # Announces every context the target has now, then each new one.
            await client.send.Runtime.enable(session_id=world._session)
            url = await world._url()
            if not url.startswith(_WEB):  # no content scripts there: no use trying
                raise NotAvailableError(_unavailable(url))
        except BaseException:
            await client.stop()
            raise
        return world

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self._client.send.Target.detachFromTarget(params={"sessionId": self._session}), 2)
        except Exception:
            pass  # the target or the browser is gone already
        await self._client.stop()

    # A page target's id is its main frame's id: the world wanted is the
    # isolated one of that frame that the extension named.
    def _created(self, event: Dict[str, Any], session_id: Optional[str]) -> None:
        ctx = event.get("context") or {}
        aux = ctx.get("auxData") or {}
        if session_id == self._session and ctx.get("name") == WORLD and aux.get("type") == "isolated" and aux.get("frameId") == self._target:
            self._context = ctx.get("id")
            self._changed.set()

    def _destroyed(self, event: Dict[str, Any], session_id: Optional[str]) -> None:
        if session_id == self._session and event.get("executionContextId") == self._context:
            self._context = None

    def _cleared(self, _event: Any, session_id: Optional[str]) -> None:
        if session_id == self._session:
            self._context = None

    async def _world(self, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        while self._context is None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise NotAvailableError(_unavailable(await self._url()))
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except asyncio.TimeoutError:
                pass
        return self._context

    async def _url(self) -> str:
        try:
            info = await self._client.send.Target.getTargetInfo(params={"targetId": self._target})
            return str(info["targetInfo"]["url"])
        except Exception:
            return "this tab"

    async def evaluate(self, expression: str, world_timeout: float = WORLD_TIMEOUT) -> Any:
        """``expression`` in the extension's world, awaited, its value
        returned. ``NavigatedError`` when its document went away meanwhile."""
        context = await self._world(world_timeout)
        try:
            answer = await self._client.send.Runtime.evaluate(
                params={"expression": expression, "contextId": context, "awaitPromise": True, "returnByValue": True},
                session_id=self._session,
            )
        except RuntimeError as e:  # CDP's error answer
            if _gone(str(e)):
                if self._context == context:
                    self._context = None
                raise NavigatedError(str(e)) from None
            raise SentienceError(f"CDP Runtime.evaluate failed: {e}") from None
        thrown = answer.get("exceptionDetails")
        if thrown:
            text = str((thrown.get("exception") or {}).get("description") or thrown.get("text"))
            if _gone(text):
                raise NavigatedError(text)
            raise SentienceError(f"the extension's world threw: {text}")
        return (answer.get("result") or {}).get("value")

    async def _until(self, expression: str, deadline: float) -> None:
        """Until ``expression`` is true in the extension's world (of
        whichever document the page has by then), or the deadline."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise asyncio.TimeoutError(f"waited for {expression}")
            try:
                if await self.evaluate(expression, world_timeout=left):
                    return
            except (NavigatedError, NotAvailableError):
                pass
            await asyncio.sleep(0.05)

    async def do(self, req: Any) -> Any:
        """Answers one request of an operation (_io.py)."""
        if isinstance(req, Eval):
            return await self.evaluate(script(req.js, req.arg))
        if isinstance(req, NewDocument):
            deadline = time.monotonic() + req.timeout_ms / 1000
            await self._until(script(req.js, req.arg), deadline)
            return await self._until(_LOADED, deadline)
        if isinstance(req, Settle):
            return await self._until(_LOADED, time.monotonic() + req.timeout_ms / 1000)
        if isinstance(req, Sleep):
            return await asyncio.sleep(req.seconds)
        raise TypeError(f"{type(req).__name__} is not available over CDP here")


async def run(ws_url: str, target_id: str, op: Op) -> Any:
    """Runs an operation on page target ``target_id`` of the browser at
    ``ws_url`` (its browser-wide DevTools WebSocket)."""
    world = await ExtensionWorld.open(ws_url, target_id)
    try:
        return await drive_async(world.do, op)
    finally:
        await world.close()
