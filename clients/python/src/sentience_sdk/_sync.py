"""The sync API over ``playwright.sync_api`` (``sentience_sdk``). The async
twin is ``sentience_sdk.aio``; both run the same operations (_ops.py)."""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from . import _launch, _ops
from ._assets import default_chromium, extension_dir
from ._io import run_sync
from ._ops import ActionResult, ElementRef, Screenshot
from .errors import SentienceError, WaitTimeout
from .models import Element, Snapshot, SnapshotDiff

Trust = Union[None, str, Iterable[str]]


class SentienceBrowser:
    """Chromium with the Sentience extension loaded: ``context`` (a
    Playwright persistent ``BrowserContext``), ``page`` (its first page),
    ``worker`` (the extension's service worker). Close it (or use ``with``)."""

    def __init__(self, playwright: Any, context: Any, worker: Any, browser: Any = None, temp_dir: Optional[str] = None) -> None:
        self.playwright = playwright
        self.context = context
        self.worker = worker
        self.browser = browser
        self._temp_dir = temp_dir
        self._owns_playwright = True
        pages = [p for p in context.pages if not p.url.startswith("chrome-extension://")]
        self.page = pages[0] if pages else context.new_page()

    def trust(self, origins: Trust) -> List[str]:
        """Gives page scripts of these origins the full view (every frame,
        screenshots; docs/api.md "Who may see and do what"), from now on,
        in open pages too. Returns the whole list. List only sites you
        control: their scripts would read every site they embed."""
        return self.worker.evaluate(_launch.TRUST_JS, _launch.origins(origins))

    def new_page(self, url: Optional[str] = None) -> Any:
        """A new tab (at ``url``, loaded, when given)."""
        page = self.context.new_page()
        if url:
            page.goto(url)
        return page

    def close(self) -> None:
        """Closes the browser (a connected one: only disconnects) and stops Playwright."""
        try:
            if self.browser is not None:
                self.browser.close()
            else:
                self.context.close()
        finally:
            if self._owns_playwright:
                self.playwright.stop()
            if self._temp_dir:
                shutil.rmtree(self._temp_dir, ignore_errors=True)

    def __enter__(self) -> "SentienceBrowser":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _find_worker(context: Any, timeout_ms: float) -> Any:
    for w in context.service_workers:
        if _launch.is_our_worker(w):
            return w
    return context.wait_for_event("serviceworker", predicate=_launch.worker_predicate(), timeout=timeout_ms)


def launch(
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
    """Starts Chromium with the packaged extension and returns it once the
    extension's service worker runs.

    - ``executable_path``: the browser (default ``$CHROMIUM``, else
      ``/usr/bin/chromium`` when present, else Playwright's own Chromium).
    - ``user_data_dir``: a profile to keep (default: a temporary one,
      deleted on close).
    - ``storage_state``: cookies and localStorage to start with (a path or
      the dict Playwright's ``context.storage_state()`` returns).
    - ``trust``: origins (or URLs) whose pages get the full view: iframes of
      other origins, screenshots (docs/api.md "Who may see and do what").
    """
    from playwright.sync_api import sync_playwright

    ext = extension_dir()
    state = _launch.load_storage_state(storage_state)
    temp = None
    if user_data_dir is None:
        temp = user_data_dir = tempfile.mkdtemp(prefix="sentience-sdk-")
    pw = sync_playwright().start()
    try:
        context = pw.chromium.launch_persistent_context(
            user_data_dir,
            executable_path=executable_path or default_chromium(),
            headless=headless,
            viewport=viewport or {"width": 1280, "height": 800},
            args=_launch.chromium_args(ext, args),
        )
        worker = _find_worker(context, timeout * 1000)
        browser = SentienceBrowser(pw, context, worker, temp_dir=temp)
    except BaseException:
        pw.stop()
        if temp:
            shutil.rmtree(temp, ignore_errors=True)
        raise
    if state:
        if state.get("cookies"):
            context.add_cookies(state["cookies"])
        script = _launch.local_storage_script(state)
        if script:
            context.add_init_script(script)
    if trust is not None:
        browser.trust(trust)
    return browser


def connect(cdp_url: str, *, trust: Trust = None, timeout: float = 20.0) -> SentienceBrowser:
    """Attaches to a running Chromium (``--remote-debugging-port``) that has
    the extension loaded (e.g. started with ``--load-extension`` of
    ``sentience_sdk.extension_path()``). ``close()`` only disconnects."""
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        browser = pw.chromium.connect_over_cdp(cdp_url)
        context = browser.contexts[0] if browser.contexts else browser.new_context()
        try:
            worker = _find_worker(context, timeout * 1000)
        except Exception as e:
            raise SentienceError(f"the browser at {cdp_url} has no Sentience extension running: {e}") from e
        sb = SentienceBrowser(pw, context, worker, browser=browser)
    except BaseException:
        pw.stop()
        raise
    if trust is not None:
        sb.trust(trust)
    return sb


def extension_path() -> str:
    """The packaged extension's folder, to load it into a browser of your own."""
    return extension_dir()


# ------------------------------------------------------------- reading


def snapshot(page: Any, **options: Any) -> Snapshot:
    """The page's actionable elements (contract v1, typed): options as
    ``window.sentience.snapshot()`` takes them (docs/api.md), e.g.
    ``limit=50``, ``filter={"in_viewport_only": True}``, ``diff=True``,
    ``wait_for_stable=True``, ``screenshot=True``. Raises ``SentienceError``
    with the extension's message on bad options."""
    return run_sync(page, _ops.snapshot(options))


def format(page: Any, max_tokens: int = 1000, *, fresh: bool = True, **options: Any) -> str:  # noqa: A001
    """The compact listing of the page for an LLM prompt, within
    ``max_tokens`` (never exceeded), most important first, ending with what
    was left out. ``fresh=False`` lists the last snapshot instead of taking one."""
    return run_sync(page, _ops.format_(max_tokens, fresh, options))


def query(page: Any, q: str, *, fresh: bool = True, **options: Any) -> List[Element]:
    """Elements matching ``q`` (the query language of docs/api.md, e.g.
    ``"role=button text~'sign in' clickable=true"``), most important first.
    Raises ``QueryError`` (with ``position``) on a bad query."""
    return run_sync(page, _ops.query(q, False, fresh, options))


def find(page: Any, q: str, *, fresh: bool = True, **options: Any) -> Optional[Element]:
    """The first element ``query`` would return, or None."""
    return run_sync(page, _ops.query(q, True, fresh, options))


def diff(page: Any, since: Optional[int] = None, **options: Any) -> SnapshotDiff:
    """What changed (added / removed / changed ids) since the page's previous
    snapshot, or since snapshot ``since`` (one of the last 4)."""
    d, _ = run_sync(page, _ops.diff(since, options))
    return d


# ------------------------------------------------------------- actions


def click(page: Any, element: ElementRef) -> ActionResult:
    """Clicks the element (an id or an Element) with user-like events."""
    return run_sync(page, _ops.click(element))


def type_text(page: Any, element: ElementRef, text: str) -> ActionResult:
    """Replaces the element's value with ``text``, key by key (on a
    ``<select>`` or listbox: picks the matching option)."""
    return run_sync(page, _ops.type_text(element, text))


def select(page: Any, element: ElementRef, value: str) -> ActionResult:
    """Chooses an option of a ``<select>``, ARIA listbox or combobox by value or text."""
    return run_sync(page, _ops.select(element, value))


def press(page: Any, key: str) -> ActionResult:
    """Presses a key (``KeyboardEvent.key``: "Enter", "Tab", "a") on the focused element."""
    return run_sync(page, _ops.press(key))


def scroll(page: Any, element: Optional[ElementRef] = None, *, dx: float = 0, dy: float = 0) -> ActionResult:
    """Scrolls the element into view, or the page by ``dx``/``dy`` pixels."""
    return run_sync(page, _ops.scroll(element, dx, dy))


def hover(page: Any, element: ElementRef, *, frames: bool = True) -> ActionResult:
    """Moves the real pointer to the element's centre (scrolled into view first)."""
    return run_sync(page, _ops.hover(element, frames))


# ------------------------------------------------------------- waiting


def wait_for(page: Any, q: str, *, timeout: float = 5.0, **options: Any) -> List[Element]:
    """Waits (across navigations) until ``q`` matches; returns the matches.
    Raises ``WaitTimeout`` after ``timeout`` seconds, with the page's
    listing in the message."""
    return run_sync(page, _ops.wait_for(q, timeout, True, options))


class PageExpectation:
    """``expect(page)``: assertions for tests, with the page's listing in
    the failure message."""

    def __init__(self, page: Any, timeout: float) -> None:
        self._page = page
        self._timeout = timeout

    def to_have(self, q: str, *, timeout: Optional[float] = None, count: Optional[int] = None) -> List[Element]:
        """Passes once an element matches ``q`` (exactly ``count`` of them, when given)."""
        t = self._timeout if timeout is None else timeout
        try:
            found = run_sync(self._page, _ops.wait_for(q, t, True, {}))
        except WaitTimeout as e:
            raise AssertionError(f"expect(page).to_have({q!r}) failed: {e}") from None
        if count is not None and len(found) != count:
            listed = ", ".join(f"#{e.id} {e.role} {e.text!r}" for e in found[:8])
            raise AssertionError(f"expect(page).to_have({q!r}, count={count}) failed: {len(found)} matched: {listed}")
        return found

    def not_to_have(self, q: str, *, timeout: Optional[float] = None) -> None:
        """Passes once nothing matches ``q``."""
        t = self._timeout if timeout is None else timeout
        try:
            run_sync(self._page, _ops.wait_for(q, t, False, {}))
        except WaitTimeout as e:
            raise AssertionError(f"expect(page).not_to_have({q!r}) failed: {e}") from None


def expect(page: Any, *, timeout: float = 5.0) -> PageExpectation:
    """``expect(page).to_have("role=button text~'Pay'")``."""
    return PageExpectation(page, timeout)


def screenshot(
    page: Any,
    path: Optional[str] = None,
    *,
    annotate: bool = True,
    format: str = "png",  # noqa: A002
    quality: Optional[int] = None,
    full_page: bool = False,
    **options: Any,
) -> Screenshot:
    """A screenshot with a numbered box over each element in the viewport
    (``annotate``), the snapshot it shows, saved to ``path`` when given."""
    shot = run_sync(page, _ops.screenshot(annotate, format, quality, full_page, options))
    if path:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        shot.save(path)
    return shot
