"""browser-use actions over the Sentience extension (``pip install
'sentience-sdk[browser-use]'``; browser-use 0.13).

browser-use drives Chrome over its own CDP layer, with no Playwright page.
This adapter adds a custom action set to its ``Tools``: ``sentience_snapshot``
(the compact listing of the page's elements, ranked by the engine: `ID role
"text"` a line), ``sentience_find`` (the query language), and
``sentience_click`` / ``sentience_type`` / ``sentience_select`` /
``sentience_press`` by the listing's element ids, each answering with its
outcome. They reach the extension in browser-use's own browser, in the
extension's isolated world (the debugger's full scope: every frame, whatever
its origin), so no origin needs trusting.

    from browser_use import Agent, Tools
    from sentience_sdk.adapters.browser_use import sentience_browser_session, sentience_tools
    session = sentience_browser_session(headless=True)     # Chromium with the extension
    tools = sentience_tools(Tools())                       # browser-use's actions + ours
    agent = Agent(task="Log in as alice", llm=llm, browser_session=session, tools=tools)
    await agent.run()

Its own DOM state still goes to the model each step (browser-use has no
seam to replace it); to have the model act only through ours, leave out
its element actions: ``Tools(exclude_actions=BUILTIN_ELEMENT_ACTIONS)``.
"""

# No `from __future__ import annotations`: browser-use reads the actions'
# parameter types from their live annotations.
import os
from typing import Any, Optional, Sequence

try:
    from browser_use import ActionResult, BrowserProfile, BrowserSession, Tools
except ImportError as e:  # pragma: no cover - the extra is missing
    raise ImportError("the browser-use adapter needs browser-use: pip install 'sentience-sdk[browser-use]'") from e

from .. import _launch, _ops
from .._assets import default_chromium, extension_dir
from ..errors import SentienceError
from . import _cdp

__all__ = ["BUILTIN_ELEMENT_ACTIONS", "sentience_browser_session", "sentience_tools"]

# browser-use's own actions that ours replace (theirs take the indexes of
# its DOM state): exclude them to leave the model one way to act.
BUILTIN_ELEMENT_ACTIONS = ("click", "input", "select_dropdown", "send_keys")


def sentience_browser_session(
    *,
    executable_path: Optional[str] = None,
    headless: bool = True,
    args: Sequence[str] = (),
    **profile: Any,
) -> BrowserSession:
    """A browser-use ``BrowserSession`` whose Chromium loads the packaged
    extension: ``executable_path`` as ``sentience_sdk.launch`` picks it
    ($CHROMIUM, else /usr/bin/chromium, else browser-use's own search),
    browser-use's downloaded default extensions off, other ``BrowserProfile``
    options passed on (``user_data_dir``, ``viewport``, ``keep_alive``…).
    Chromium's sandbox stays on, except for root, where Chromium refuses to
    start with it."""
    profile.setdefault("enable_default_extensions", False)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        profile.setdefault("chromium_sandbox", False)
    return BrowserSession(
        browser_profile=BrowserProfile(
            executable_path=executable_path or default_chromium(),
            headless=headless,
            args=_launch.chromium_args(extension_dir(), args),
            **profile,
        )
    )


async def _run(browser_session: BrowserSession, op: _ops.Op) -> Any:
    """An operation on the tab the agent is focused on."""
    target = (await browser_session.get_or_create_cdp_session()).target_id
    if not browser_session.cdp_url:
        raise SentienceError("the browser session is not connected to a browser")
    return await _cdp.run(browser_session.cdp_url, target, op)


async def _act(browser_session: BrowserSession, what: str, op: _ops.Op) -> ActionResult:
    """An action, its outcome (or its failure) as browser-use's result."""
    try:
        result = await _run(browser_session, op)
    except (SentienceError, TypeError) as e:
        return ActionResult(error=f"{what} failed: {e}")
    if not result.success:
        return ActionResult(error=f"{what} failed: {result.error}")
    done = f"{what}: ok ({result.outcome})"
    return ActionResult(extracted_content=done, long_term_memory=done)


def sentience_tools(tools: Optional[Tools] = None, *, max_tokens: int = 1000) -> Tools:
    """Registers the Sentience actions on ``tools`` (a browser-use ``Tools``;
    a new one with browser-use's default actions when None) and returns it.
    ``max_tokens`` bounds ``sentience_snapshot``'s listing. Failures come
    back as the action's error, which the model reads."""
    if not isinstance(max_tokens, int) or max_tokens <= 0:
        raise ValueError("max_tokens must be a positive integer")
    if tools is None:
        tools = Tools()

    @tools.action(
        'Sentience: list the page\'s actionable elements, most important first, one a line as `ID role "text"` '
        "(frames included). Use these ids with sentience_click, sentience_type, sentience_select."
    )
    async def sentience_snapshot(browser_session: BrowserSession) -> ActionResult:
        try:
            listing = await _run(browser_session, _ops.format_(max_tokens, True, {}))
        except SentienceError as e:
            return ActionResult(error=f"sentience_snapshot failed: {e}")
        url = await browser_session.get_current_page_url()
        return ActionResult(
            extracted_content=listing,
            include_extracted_content_only_once=True,
            long_term_memory=f"Listed the elements of {url} with sentience_snapshot",
        )

    @tools.action(
        "Sentience: find elements with a query, e.g. \"role=button text~'sign in'\" or \"role=textbox text~email\"; "
        "answers their ids, roles and texts (at most 10, most important first)."
    )
    async def sentience_find(query: str, browser_session: BrowserSession) -> ActionResult:
        try:
            found = await _run(browser_session, _ops.query(query, False, True, {}))
        except SentienceError as e:
            return ActionResult(error=f"sentience_find failed: {e}")
        lines = "\n".join(f'{e.id} {e.role} "{e.text or ""}"' for e in found[:10]) or "no element matches"
        return ActionResult(extracted_content=lines, include_extracted_content_only_once=True, long_term_memory=f"sentience_find {query!r}: {len(found)} found")

    @tools.action("Sentience: click the element with this id (from sentience_snapshot or sentience_find).")
    async def sentience_click(element_id: int, browser_session: BrowserSession) -> ActionResult:
        return await _act(browser_session, f"sentience_click {element_id}", _ops.click(element_id))

    @tools.action("Sentience: replace the value of the text field with this id by `text`, key by key.")
    async def sentience_type(element_id: int, text: str, browser_session: BrowserSession) -> ActionResult:
        # The text is not repeated in the memory: it may be a password.
        return await _act(browser_session, f"sentience_type {len(text)} characters into {element_id}", _ops.type_text(element_id, text))

    @tools.action("Sentience: choose an option (by value or text) of the <select>, listbox or combobox with this id.")
    async def sentience_select(element_id: int, value: str, browser_session: BrowserSession) -> ActionResult:
        return await _act(browser_session, f"sentience_select {value!r} in {element_id}", _ops.select(element_id, value))

    @tools.action('Sentience: press a key on the focused element: "Enter", "Tab", "Escape", "a".')
    async def sentience_press(key: str, browser_session: BrowserSession) -> ActionResult:
        return await _act(browser_session, f"sentience_press {key}", _ops.press(key))

    return tools
