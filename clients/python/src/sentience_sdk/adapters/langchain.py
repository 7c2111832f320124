"""LangChain tools over a page (``pip install 'sentience-sdk[langchain]'``):
``snapshot`` (the compact listing an LLM reads), ``find``, ``click``,
``type`` and ``press``, each answering with text a model can act on.

    from sentience_sdk.adapters.langchain import sentience_tools
    tools = sentience_tools(browser.page)          # sync Playwright page
    agent = create_agent(model, tools)             # any LangChain agent
"""

from __future__ import annotations

import functools
import json
from typing import Any, List

try:
    from langchain_core.tools import BaseTool, StructuredTool
except ImportError as e:  # pragma: no cover - the extra is missing
    raise ImportError("the LangChain adapter needs langchain-core: pip install 'sentience-sdk[langchain]'") from e

from .. import _sync
from ..errors import SentienceError


def _outcome(result: Any) -> str:
    if result.success:
        return f"ok ({result.outcome})"
    return f"failed: {result.error}"


def sentience_tools(page: Any, *, max_tokens: int = 1000) -> List[BaseTool]:
    """The tools, bound to ``page`` (a ``playwright.sync_api.Page`` with the
    extension: see ``sentience_sdk.launch``). Errors come back as text
    ("error: …"), so the model can correct itself."""

    def guarded(fn):
        @functools.wraps(fn)  # keeps the signature the tool's schema is read from
        def run(*args: Any, **kwargs: Any) -> str:
            try:
                return fn(*args, **kwargs)
            except SentienceError as e:
                return f"error: {e}"

        return run

    @guarded
    def snapshot() -> str:
        """List the page's actionable elements, most important first: one per
        line as `ID role "text"`. Use the ids with click and type."""
        return _sync.format(page, max_tokens=max_tokens)

    @guarded
    def find(query: str) -> str:
        """Find elements with the Sentience query language, e.g.
        "role=button text~'sign in'" or "role=textbox text~email"; returns JSON."""
        found = _sync.query(page, query)[:10]
        return json.dumps([{"id": e.id, "role": e.role, "text": e.text} for e in found])

    @guarded
    def click(element_id: int) -> str:
        """Click the element with this id (from snapshot or find)."""
        return _outcome(_sync.click(page, element_id))

    @guarded
    def type(element_id: int, text: str) -> str:  # noqa: A001
        """Replace the value of the text field with this id by `text`."""
        return _outcome(_sync.type_text(page, element_id, text))

    @guarded
    def press(key: str) -> str:
        """Press a key on the focused element: "Enter", "Tab", "Escape", "a"."""
        return _outcome(_sync.press(page, key))

    return [StructuredTool.from_function(f, name=f.__name__) for f in (snapshot, find, click, type, press)]
