"""The JavaScript each operation evaluates in the page: one call of
``window.sentience`` (docs/api.md), answered as JSON text. Text, not an
object: Playwright's value serialisation walks an object key by key on both
sides, while a string crosses as one value and ``json.loads`` reads it in C
(a 10,000-element snapshot comes back several times faster this way).
"""

# Every script starts with this: a page without the extension says so.
_READY = (
    "if (typeof window.sentience !== 'object' || window.sentience === null) "
    "return JSON.stringify({status: 'unavailable', url: location.href});"
)


def _fn(params: str, body: str) -> str:
    return f"async ({params}) => {{ {_READY} {body} }}"


SNAPSHOT = _fn("o", "return JSON.stringify(await window.sentience.snapshot(o));")

# query / find / format over a fresh snapshot (fresh) or the last one.
QUERY = _fn(
    "a",
    "if (a.fresh) { const s = await window.sentience.snapshot(a.options); "
    "if (s.status !== 'success') return JSON.stringify(s); } "
    "const r = a.first ? await window.sentience.find(a.q) : await window.sentience.query(a.q); "
    "return JSON.stringify(r === null ? {status: 'none'} : Array.isArray(r) ? {status: 'success', elements: r} "
    ": r.status === 'error' ? r : {status: 'success', element: r});",
)

FORMAT = _fn(
    "a",
    "if (a.fresh) { const s = await window.sentience.snapshot(a.options); "
    "if (s.status !== 'success') return JSON.stringify(s); } "
    "const r = await window.sentience.format({max_tokens: a.max_tokens}); "
    "return JSON.stringify(typeof r === 'string' ? {status: 'success', text: r} : r);",
)

# Actions: {success, error?, outcome}, plus which document answered
# (performance.timeOrigin is new with every document) and its URL, so that
# after outcome "navigated" the caller can wait for the next document.
def _act(call: str) -> str:
    return _fn("a", f"const r = await {call}; return JSON.stringify({{...r, doc: performance.timeOrigin, href: location.href}});")


CLICK = _act("window.sentience.click(a.id)")
TYPE = _act("window.sentience.type(a.id, a.text)")
SELECT = _act("window.sentience.select(a.id, a.value)")
PRESS = _act("window.sentience.press(a.key)")
SCROLL = _act("window.sentience.scroll(a.target)")

# After outcome "navigated": true once the page is another document (or the
# same one at another URL) that has the extension's API.
NEW_DOCUMENT = (
    "(a) => (performance.timeOrigin !== a.doc || location.href !== a.href) "
    "&& typeof window.sentience === 'object' && window.sentience !== null"
)

# Hover, step 1: where the element is now (scrolled into view first when it
# is not in the viewport), and a mutation counter to tell the outcome.
HOVER_LOCATE = _fn(
    "a",
    "let s = await window.sentience.snapshot({frames: a.frames}); if (s.status !== 'success') return JSON.stringify(s); "
    "let e = s.elements.find((x) => x.id === a.id); "
    "if (e && !e.in_viewport) { const r = await window.sentience.scroll(a.id); "
    "if (!r.success) return JSON.stringify({status: 'error', error: r.error}); "
    "s = await window.sentience.snapshot({frames: a.frames}); e = s.status === 'success' ? s.elements.find((x) => x.id === a.id) : null; } "
    "if (!e) return JSON.stringify({status: 'error', error: `hover: no element ${a.id} in the page's snapshot (gone, or not actionable)`}); "
    "const key = '__sentienceHoverMutations'; const box = {n: 0}; "
    "const mo = new MutationObserver((l) => { box.n += l.length; }); "
    "mo.observe(document, {subtree: true, childList: true, attributes: true, characterData: true}); "
    "Object.defineProperty(window, key, {value: () => { mo.disconnect(); return box.n; }, configurable: true}); "
    "return JSON.stringify({status: 'success', bbox: e.bbox, since: s.snapshot_id ?? null});",
)
# The hover changed the page when the DOM mutated or, as a CSS :hover menu
# does without a mutation, the actionable elements differ from the snapshot
# taken before the move (the TypeScript package's hover decides the same way).
HOVER_OUTCOME = _fn(
    "a",
    "await new Promise((r) => setTimeout(r, 50)); const f = window.__sentienceHoverMutations; "
    "delete window.__sentienceHoverMutations; let changed = Boolean(f && f() > 0); "
    "if (!changed && a.since !== null) { const s = await window.sentience.snapshot({since: a.since, frames: a.frames}); "
    "const d = s.status === 'success' ? s.diff : null; changed = Boolean(d && d.since !== null && (d.added.length || d.removed.length || d.changed.length)); } "
    "return JSON.stringify({success: true, outcome: changed ? 'dom_changed' : 'none', doc: performance.timeOrigin, href: location.href});",
)

# wait_for: snapshot + query until a match or the deadline, inside the page
# (one round trip however long it waits); at the deadline, the page's listing.
WAIT_FOR = _fn(
    "a",
    "const end = Date.now() + a.timeout_ms; "
    "for (;;) { const s = await window.sentience.snapshot(a.options); "
    "if (s.status !== 'success') return JSON.stringify(s); "
    "const r = await window.sentience.query(a.q); "
    "if (!Array.isArray(r)) return JSON.stringify(r); "
    "if ((r.length > 0) === a.present) return JSON.stringify({status: 'success', elements: r}); "
    "if (Date.now() >= end) { const f = await window.sentience.format({max_tokens: a.listing_tokens}); "
    "return JSON.stringify({status: 'timeout', elements: r, listing: typeof f === 'string' ? f : '', url: location.href}); } "
    "await new Promise((res) => setTimeout(res, a.interval_ms)); }",
)

SHOW_OVERLAY = _fn("a", "return JSON.stringify(await window.sentience.showOverlay(a));")
CLEAR_OVERLAY = _fn("", "return JSON.stringify(await window.sentience.clearOverlay());")
