"""The async API, over ``playwright.async_api``: the same names as
``sentience_sdk`` (the same operations, _ops.py), awaited.

    from sentience_sdk.aio import launch, snapshot
    async with await launch() as browser:
        await browser.page.goto("https://example.com")
        snap = await snapshot(browser.page)
"""

from __future__ import annotations

import inspect
import os
import shutil
import tempfile
from typing import Any, AsyncIterator, Callable, Dict, Iterable, List, Optional, Sequence, Union

from . import _launch, _ops
from ._assets import default_chromium, extension_dir
from ._io import run_async
from ._ops import ActionResult, ElementRef, Screenshot
from ._run import CONTROL_URL, RESTORE_SETTINGS_JS, SETTINGS_JS, Call, Emit, EvalOn, OnAsk, OpenControl, Question, RunResult, Step, run_task
from .agent import AgentServer, _settings
from .errors import NavigatedError, NotAvailableError, QueryError, SentienceError, WaitTimeout
from .models import Element, Snapshot, SnapshotDiff

__all__ = [
    "ActionResult", "Agent", "AgentServer", "Element", "NavigatedError", "NotAvailableError", "PageExpectation",
    "Question", "QueryError", "RunResult", "Screenshot", "SentienceBrowser", "SentienceError", "Snapshot",
    "SnapshotDiff", "Step", "WaitTimeout", "click", "connect", "diff", "expect", "extension_path", "find",
    "format", "hover", "launch", "press", "query", "screenshot", "scroll", "select", "snapshot", "type_text",
    "wait_for",
]

Trust = Union[None, str, Iterable[str]]


class SentienceBrowser:
    """Chromium with the Sentience extension loaded (async): ``context``,
    ``page``, ``worker``. Close it (or use ``async with``)."""

    def __init__(self, playwright: Any, context: Any, worker: Any, page: Any, browser: Any = None, temp_dir: Optional[str] = None) -> None:
        self.playwright = playwright
        self.context = context
        self.worker = worker
        self.page = page
        self.browser = browser
        self._temp_dir = temp_dir

    async def trust(self, origins: Trust) -> List[str]:
        """Gives page scripts of these origins the full view (docs/api.md
        "Who may see and do what"); returns the whole list."""
        return await self.worker.evaluate(_launch.TRUST_JS, _launch.origins(origins))

    async def new_page(self, url: Optional[str] = None) -> Any:
        """A new tab (at ``url``, loaded, when given)."""
        page = await self.context.new_page()
        if url:
            await page.goto(url)
        return page

    async def close(self) -> None:
        """Closes the browser (a connected one: only disconnects) and stops Playwright."""
        try:
            if self.browser is not None:
                await self.browser.close()
            else:
                await self.context.close()
        finally:
            await self.playwright.stop()
            if self._temp_dir:
                shutil.rmtree(self._temp_dir, ignore_errors=True)

    async def __aenter__(self) -> "SentienceBrowser":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()


async def _find_worker(context: Any, timeout_ms: float) -> Any:
    for w in context.service_workers:
        if _launch.is_our_worker(w):
            return w
    return await context.wait_for_event("serviceworker", predicate=_launch.worker_predicate(), timeout=timeout_ms)


async def _first_page(context: Any) -> Any:
    pages = [p for p in context.pages if not p.url.startswith("chrome-extension://")]
    return pages[0] if pages else await context.new_page()


async def launch(
    *,
    headless: bool = True,
    user_data_dir: Optional[str] = None,
    storage_state: Union[None, str, Dict[str, Any]] = None,
    executable_path: Optional[str] = None,
    trust: Trust = None,
    viewport: Optional[Dict[str, int]] = None,
    args: Sequence[str] = (),
    timeout: float = 20.0,
) -> SentienceBrowser:
    """Starts Chromium with the packaged extension (see ``sentience_sdk.launch``)."""
    from playwright.async_api import async_playwright

    ext = extension_dir()
    state = _launch.load_storage_state(storage_state)
    temp = None
    if user_data_dir is None:
        temp = user_data_dir = tempfile.mkdtemp(prefix="sentience-sdk-")
    pw = await async_playwright().start()
    try:
        context = await pw.chromium.launch_persistent_context(
            user_data_dir,
            executable_path=executable_path or default_chromium(),
            headless=headless,
            viewport=viewport or {"width": 1280, "height": 800},
            args=_launch.chromium_args(ext, args),
        )
        worker = await _find_worker(context, timeout * 1000)
        browser = SentienceBrowser(pw, context, worker, await _first_page(context), temp_dir=temp)
    except BaseException:
        await pw.stop()
        if temp:
            shutil.rmtree(temp, ignore_errors=True)
        raise
    if state:
        if state.get("cookies"):
            await context.add_cookies(state["cookies"])
        script = _launch.local_storage_script(state)
        if script:
            await context.add_init_script(script)
    if trust is not None:
        await browser.trust(trust)
    return browser


async def connect(cdp_url: str, *, trust: Trust = None, timeout: float = 20.0) -> SentienceBrowser:
    """Attaches to a running Chromium that has the extension loaded (see ``sentience_sdk.connect``)."""
    from playwright.async_api import async_playwright

    pw = await async_playwright().start()
    try:
        browser = await pw.chromium.connect_over_cdp(cdp_url)
        context = browser.contexts[0] if browser.contexts else await browser.new_context()
        try:
            worker = await _find_worker(context, timeout * 1000)
        except Exception as e:
            raise SentienceError(f"the browser at {cdp_url} has no Sentience extension running: {e}") from e
        sb = SentienceBrowser(pw, context, worker, await _first_page(context), browser=browser)
    except BaseException:
        await pw.stop()
        raise
    if trust is not None:
        await sb.trust(trust)
    return sb


def extension_path() -> str:
    """The packaged extension's folder."""
    return extension_dir()


async def snapshot(page: Any, **options: Any) -> Snapshot:
    """See ``sentience_sdk.snapshot``."""
    return await run_async(page, _ops.snapshot(options))


async def format(page: Any, max_tokens: int = 1000, *, fresh: bool = True, **options: Any) -> str:  # noqa: A001
    """See ``sentience_sdk.format``."""
    return await run_async(page, _ops.format_(max_tokens, fresh, options))


async def query(page: Any, q: str, *, fresh: bool = True, **options: Any) -> List[Element]:
    """See ``sentience_sdk.query``."""
    return await run_async(page, _ops.query(q, False, fresh, options))


async def find(page: Any, q: str, *, fresh: bool = True, **options: Any) -> Optional[Element]:
    """See ``sentience_sdk.find``."""
    return await run_async(page, _ops.query(q, True, fresh, options))


async def diff(page: Any, since: Optional[int] = None, **options: Any) -> SnapshotDiff:
    """See ``sentience_sdk.diff``."""
    d, _ = await run_async(page, _ops.diff(since, options))
    return d


async def click(page: Any, element: ElementRef) -> ActionResult:
    """See ``sentience_sdk.click``."""
    return await run_async(page, _ops.click(element))


async def type_text(page: Any, element: ElementRef, text: str) -> ActionResult:
    """See ``sentience_sdk.type_text``."""
    return await run_async(page, _ops.type_text(element, text))


async def select(page: Any, element: ElementRef, value: str) -> ActionResult:
    """See ``sentience_sdk.select``."""
    return await run_async(page, _ops.select(element, value))


async def press(page: Any, key: str) -> ActionResult:
    """See ``sentience_sdk.press``."""
    return await run_async(page, _ops.press(key))


async def scroll(page: Any, element: Optional[ElementRef] = None, *, dx: float = 0, dy: float = 0) -> ActionResult:
    """See ``sentience_sdk.scroll``."""
    return await run_async(page, _ops.scroll(element, dx, dy))


async def hover(page: Any, element: ElementRef, *, frames: bool = True) -> ActionResult:
    """See ``sentience_sdk.hover``."""
    return await run_async(page, _ops.hover(element, frames))


async def wait_for(page: Any, q: str, *, timeout: float = 5.0, **options: Any) -> List[Element]:
    """See ``sentience_sdk.wait_for``."""
    return await run_async(page, _ops.wait_for(q, timeout, True, options))


class PageExpectation:
    """``expect(page)`` (async): see ``sentience_sdk.PageExpectation``."""

    def __init__(self, page: Any, timeout: float) -> None:
        self._page = page
        self._timeout = timeout

    async def to_have(self, q: str, *, timeout: Optional[float] = None, count: Optional[int] = None) -> List[Element]:
        """Passes once an element matches ``q`` (exactly ``count`` of them, when given)."""
        t = self._timeout if timeout is None else timeout
        try:
            found = await run_async(self._page, _ops.wait_for(q, t, True, {}))
        except WaitTimeout as e:
            raise AssertionError(f"expect(page).to_have({q!r}) failed: {e}") from None
        if count is not None and len(found) != count:
            listed = ", ".join(f"#{e.id} {e.role} {e.text!r}" for e in found[:8])
            raise AssertionError(f"expect(page).to_have({q!r}, count={count}) failed: {len(found)} matched: {listed}")
        return found

    async def not_to_have(self, q: str, *, timeout: Optional[float] = None) -> None:
        """Passes once nothing matches ``q``."""
        t = self._timeout if timeout is None else timeout
        try:
            await run_async(self._page, _ops.wait_for(q, t, False, {}))
        except WaitTimeout as e:
            raise AssertionError(f"expect(page).not_to_have({q!r}) failed: {e}") from None


def expect(page: Any, *, timeout: float = 5.0) -> PageExpectation:
    """``await expect(page).to_have("role=button text~'Pay'")``."""
    return PageExpectation(page, timeout)


async def screenshot(
    page: Any,
    path: Optional[str] = None,
    *,
    annotate: bool = True,
    format: str = "png",  # noqa: A002
    quality: Optional[int] = None,
    full_page: bool = False,
    **options: Any,
) -> Screenshot:
    """See ``sentience_sdk.screenshot``."""
    shot = await run_async(page, _ops.screenshot(annotate, format, quality, full_page, options))
    if path:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        shot.save(path)
    return shot


class Agent:
    """The async ``Agent`` (see ``sentience_sdk.Agent``); ``on_ask`` and
    ``on_step`` may be coroutine functions."""

    def __init__(
        self,
        page: Any,
        *,
        server: Optional[str] = None,
        api_key: Optional[str] = None,
        llm: Optional[Dict[str, str]] = None,
        mode: str = "autonomous",
        on_ask: Optional[OnAsk] = None,
        on_step: Optional[Callable[[Step], Any]] = None,
    ) -> None:
        self.page = page
        self.mode = mode
        self.on_ask = on_ask
        self.on_step = on_step
        self._own_server = None if server else AgentServer(llm)
        self.server_url = server.rstrip("/") if server else self._own_server.url  # type: ignore[union-attr]
        self._api_key = api_key
        self._control: Any = None
        self._old_settings: Any = None
        self.last_result: Optional[RunResult] = None

    async def _do(self, req: Any) -> Any:
        if isinstance(req, OpenControl):
            self._control = await self.page.context.new_page()
            await self._control.goto(CONTROL_URL)
            self._old_settings = await self._control.evaluate(SETTINGS_JS, _settings(self.server_url, self._api_key))
            await self.page.bring_to_front()
            return self._control
        if isinstance(req, EvalOn):
            return await req.page.evaluate(req.js, req.arg)
        if isinstance(req, Call):
            out = req.fn(req.arg)
            return (await out) if inspect.isawaitable(out) else out
        raise TypeError(f"unknown request {req!r}")

    async def stream(self, task: str, *, url: Optional[str] = None, mode: Optional[str] = None, timeout: float = 600) -> AsyncIterator[Step]:
        """Starts the run and yields each ``Step``; the result is then in ``last_result``."""
        op = run_task(self.page, self._control, task, mode or self.mode, url, self.on_ask, timeout)
        try:
            req = next(op)
            while True:
                if isinstance(req, Emit):
                    if self.on_step:
                        out = self.on_step(req.step)
                        if inspect.isawaitable(out):
                            await out
                    yield req.step
                    req = op.send(None)
                    continue
                try:
                    res = await self._do(req)
                except Exception as e:
                    req = op.throw(e)
                    continue
                req = op.send(res)
        except StopIteration as stop:
            self.last_result = stop.value

    async def run(self, task: str, *, url: Optional[str] = None, mode: Optional[str] = None, timeout: float = 600) -> RunResult:
        """Runs ``task`` until it completes, fails or is cancelled."""
        async for _ in self.stream(task, url=url, mode=mode, timeout=timeout):
            pass
        assert self.last_result is not None
        return self.last_result

    async def close(self) -> None:
        """Closes the control page (restoring the extension's settings) and stops the private server."""
        try:
            if self._control is not None and not self._control.is_closed():
                await self._control.evaluate(RESTORE_SETTINGS_JS, self._old_settings)
                await self._control.close()
        finally:
            self._control = None
            if self._own_server:
                self._own_server.stop()

    async def __aenter__(self) -> "Agent":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()
