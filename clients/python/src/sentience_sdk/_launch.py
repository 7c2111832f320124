"""What launching needs, shared by the sync and async browsers: Chromium's
switches for the packaged extension, trusted origins, storage state."""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Union
from urllib.parse import urlsplit

from ._assets import SERVICE_WORKER_URL

# Like the project's own test harness (tests/lib/harness.mjs): quiet, no
# first-run UI, nothing fetched in the background.
QUIET_ARGS = (
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)

# docs/api.md "Who may see and do what": the one line that trusts origins,
# run in the extension's service worker; merges with the list already there.
TRUST_JS = """async (origins) => {
  const key = 'trusted_origins';
  const current = (await chrome.storage.local.get(key))[key] || [];
  const next = [...new Set([...current, ...origins])];
  await chrome.storage.local.set({ [key]: next });
  return next;
}"""


def chromium_args(extension: str, extra: Sequence[str]) -> List[str]:
    return [f"--disable-extensions-except={extension}", f"--load-extension={extension}", *QUIET_ARGS, *extra]


def origin_of(url_or_origin: str) -> str:
    """``http://localhost:3000/a?b`` → ``http://localhost:3000``; refuses
    what is not an http(s) origin."""
    parts = urlsplit(url_or_origin.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"not an http(s) origin: {url_or_origin!r} (e.g. 'http://localhost:3000')")
    return f"{parts.scheme}://{parts.netloc}".lower()


def origins(trust: Union[None, str, Iterable[str]]) -> List[str]:
    if trust is None:
        return []
    if isinstance(trust, str):
        trust = [trust]
    return [origin_of(t) for t in trust]


def is_our_worker(worker: Any) -> bool:
    return worker.url == SERVICE_WORKER_URL


def worker_predicate() -> Callable[[Any], bool]:
    """A predicate for ``wait_for_event("serviceworker")``, new for each call.

    Playwright caches the wrapper it makes of a handler on the handler
    itself, bound to the API (sync or async) that wrapped it first. One
    module function shared by both forms would make an async wait, after a
    sync one in the same process, hand back a sync ``Worker`` of the async
    connection (whose calls then fail: "'NoneType' object has no attribute
    'dead'")."""
    return lambda worker: is_our_worker(worker)


def load_storage_state(storage_state: Union[None, str, Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    if storage_state is None:
        return None
    if isinstance(storage_state, dict):
        return storage_state
    with open(storage_state, encoding="utf-8") as f:
        return json.load(f)


def local_storage_script(state: Dict[str, Any]) -> Optional[str]:
    """An init script giving each origin of a storage state its localStorage
    items (only keys the page does not have yet: it is the initial state, as
    Playwright's new_context(storage_state=…) gives it, not a reset on every
    load). A persistent context (the extension needs one) takes no
    storage_state of its own."""
    items = {o["origin"]: o.get("localStorage", []) for o in state.get("origins", []) if o.get("localStorage")}
    if not items:
        return None
    return (
        "(() => { const all = " + json.dumps(items) + "; const mine = all[location.origin]; if (!mine) return; "
        "try { for (const {name, value} of mine) if (localStorage.getItem(name) === null) localStorage.setItem(name, value); } catch (e) {} })();"
    )
