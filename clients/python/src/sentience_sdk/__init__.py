"""Sentience for Python: Chromium with the Sentience extension, typed
snapshots (contract v1), actions by element id, waits and assertions, and an
agent, over Playwright. The sync API is here; ``sentience_sdk.aio`` has the
same names for ``playwright.async_api``.

    from sentience_sdk import launch, snapshot, find, click
    with launch(trust=["http://localhost:3000"]) as browser:
        browser.page.goto("http://localhost:3000")
        snap = snapshot(browser.page, limit=20)
        click(browser.page, find(browser.page, "role=button text~'sign in'"))
"""

from ._ops import ActionResult, Screenshot
from ._sync import (
    PageExpectation,
    SentienceBrowser,
    click,
    connect,
    diff,
    expect,
    extension_path,
    find,
    format,
    hover,
    launch,
    press,
    query,
    screenshot,
    scroll,
    select,
    snapshot,
    type_text,
    wait_for,
)
from .agent import Agent, Question, RunResult, Step
from .errors import NavigatedError, NotAvailableError, QueryError, SentienceError, WaitTimeout
from .models import BBox, Element, ElementState, Snapshot, SnapshotDiff, VisualCues

__version__ = "0.1.0"

__all__ = [
    "ActionResult",
    "Agent",
    "BBox",
    "Element",
    "ElementState",
    "NavigatedError",
    "NotAvailableError",
    "PageExpectation",
    "Question",
    "QueryError",
    "RunResult",
    "Screenshot",
    "SentienceBrowser",
    "SentienceError",
    "Snapshot",
    "SnapshotDiff",
    "Step",
    "VisualCues",
    "WaitTimeout",
    "click",
    "connect",
    "diff",
    "expect",
    "extension_path",
    "find",
    "format",
    "hover",
    "launch",
    "press",
    "query",
    "screenshot",
    "scroll",
    "select",
    "snapshot",
    "type_text",
    "wait_for",
]
