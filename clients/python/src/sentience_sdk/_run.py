"""An agent run, written once (a generator over requests, as _io.py does for
the page operations) and driven by the sync ``Agent`` and the async one.

The run is the extension's own: its service worker's run loop
(extension/run/run-loop.js) drives the agent server's run API exactly as
when a person starts a run from the popup, and as ``sentience run`` does
(crates/cli/src/run.rs): this module sends the popup's messages
(``run-start``, ``run-answer``, ``run-cancel``) from an extension page and
follows the run record the worker keeps in ``chrome.storage``. No decision
is made here.

Records come from ``next_record`` (a long poll on
``chrome.storage.onChanged`` in the extension page): each is the whole run
record, and ``Follower`` turns records into ``Step``s and questions. A
server-side event stream (a WebSocket ``/agent/run/:id/stream``) would
replace ``next_record`` with a reader of that stream yielding the same
records; nothing else changes.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Union

from ._assets import EXTENSION_ID
from ._ops import ActionResult
from .errors import SentienceError

CONTROL_URL = f"chrome-extension://{EXTENSION_ID}/extension/options/options.html"
TERMINAL = ("completed", "error", "cancelled")

# In the extension page (the UI channel the popup uses).
SEND_JS = "(m) => chrome.runtime.sendMessage(m)"
SETTINGS_JS = """async (s) => {
  const old = (await chrome.storage.local.get('settings')).settings || null;
  await chrome.storage.local.set({ settings: { ...(old || {}), ...s } });
  return old;
}"""
RESTORE_SETTINGS_JS = """async (old) => {
  if (old === null) await chrome.storage.local.remove('settings');
  else await chrome.storage.local.set({ settings: old });
}"""
TAB_JS = """async (a) => {
  const tabs = (await chrome.tabs.query({})).filter((t) => (a.title ? t.title === a.title : t.url === a.url));
  return tabs.length === 1 ? tabs[0].id : tabs.length === 0 ? null : -1;
}"""
# Resolves with the run record once it differs from `since`, or after
# `timeout_ms` with it as it is (listener first, then the read: no change
# is missed between the two).
WATCH_JS = """(a) => new Promise((resolve) => {
  const mark = (r) => (r ? `${r.updatedAt}:${r.log.length}:${r.status}` : '');
  let done = false;
  const finish = (r) => { if (done) return; done = true; chrome.storage.onChanged.removeListener(on); clearTimeout(t); resolve(JSON.stringify(r ?? null)); };
  const on = (changes, area) => { if (area === 'local' && changes[a.key]) finish(changes[a.key].newValue); };
  chrome.storage.onChanged.addListener(on);
  const t = setTimeout(() => chrome.storage.local.get(a.key).then((x) => finish(x[a.key])), a.timeout_ms);
  chrome.storage.local.get(a.key).then((x) => { const r = x[a.key]; if (r && mark(r) !== a.since) finish(r); });
})"""
TITLE_JS = "(t) => { const old = document.title; document.title = t; return old; }"


@dataclass(frozen=True)
class Step:
    """One line of the run's log (as the popup shows it): ``kind`` is
    ``tool`` (with ``tool``, ``params``, ``target`` and its ``result``),
    ``ask``, ``answer``, ``finish``, or another note with ``text``."""

    step: int
    kind: str
    text: Optional[str] = None
    tool: Optional[str] = None
    params: Dict[str, Any] = field(default_factory=dict)
    target: Optional[str] = None
    result: Optional[ActionResult] = None
    raw: Dict[str, Any] = field(default_factory=dict, repr=False)

    def __str__(self) -> str:
        if self.kind == "tool":
            p = self.params
            target = f' "{self.target}"' if self.target else (f" {p['url']}" if p.get("url") else (f" {p['key']}" if p.get("key") else ""))
            typed = f' ← "{p["text"]}"' if self.tool == "type" and isinstance(p.get("text"), str) else ""
            mark = "" if self.result is None else (" ✓" if self.result.success else f" ✗ {self.result.error or ''}")
            return f"[{self.step:>3}] {self.tool}{target}{typed}{mark}"
        labels = {"ask": "asks: ", "answer": "you ", "finish": "finished: "}
        return f"[{self.step:>3}] {labels.get(self.kind, self.kind + ': ')}{self.text or ''}"


@dataclass(frozen=True)
class Question:
    """The agent asks (careful mode's security checks, or a question that
    wants words). Answer True/False, or a string for a free-text answer."""

    text: str
    run_id: str
    security: bool


@dataclass
class RunResult:
    """How the run ended: ``status`` (completed, error, cancelled), the
    agent's ``result`` text or the ``error``, and every ``Step``."""

    run_id: str
    status: str
    result: Optional[str]
    error: Optional[str]
    steps: List[Step]
    questions: int
    record: Dict[str, Any] = field(repr=False, default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status == "completed"


Answer = Union[bool, str]
OnAsk = Callable[[Question], Any]


def _step(entry: Dict[str, Any]) -> Step:
    res = entry.get("result")
    result = None
    if isinstance(res, dict):
        result = ActionResult(bool(res.get("success")), res.get("outcome") or "none", res.get("error"))
    return Step(
        step=int(entry.get("step") or 0),
        kind=str(entry.get("kind") or ""),
        text=entry.get("text"),
        tool=entry.get("tool"),
        params=entry.get("params") or {},
        target=entry.get("target"),
        result=result,
        raw=entry,
    )


class Follower:
    """Run records in, new steps and unanswered questions out."""

    def __init__(self) -> None:
        self.printed = 0
        self.answered = 0
        self.steps: List[Step] = []

    def new_steps(self, rec: Dict[str, Any]) -> List[Step]:
        out = []
        for entry in rec.get("log", [])[self.printed :]:
            # A tool line is reported once its result is known.
            if entry.get("kind") == "tool" and "result" not in entry and rec.get("status") not in TERMINAL:
                break
            out.append(_step(entry))
            self.printed += 1
        self.steps.extend(out)
        return out

    def question(self, rec: Dict[str, Any]) -> Optional[Question]:
        if rec.get("status") != "waiting_user":
            return None
        asks = sum(1 for e in rec.get("log", []) if e.get("kind") == "ask")
        if asks <= self.answered:
            return None
        self.answered = asks
        text = rec.get("question") or "Proceed?"
        return Question(text, rec["runId"], "Security check" in text)


@dataclass(frozen=True)
class EvalOn:
    page: Any
    js: str
    arg: Any = None


@dataclass(frozen=True)
class Call:
    fn: Callable[..., Any]
    arg: Any


@dataclass(frozen=True)
class Emit:
    step: Step


@dataclass(frozen=True)
class OpenControl:
    """Open the extension page the run is driven from (driver: new tab,
    then the target page brought back to the front)."""


def _mark(rec: Optional[Dict[str, Any]]) -> str:
    return f"{rec['updatedAt']}:{len(rec['log'])}:{rec['status']}" if rec else ""


def next_record(control: Any, key: str, last: Optional[Dict[str, Any]]):
    """The run record once it differs from ``last`` (or after a second with
    it as it is; None while the worker has not written it yet)."""
    text = yield EvalOn(control, WATCH_JS, {"key": key, "since": _mark(last), "timeout_ms": 1000})
    return json.loads(text) if isinstance(text, str) else None


def run_task(page: Any, control: Any, task: str, mode: str, url: Optional[str], on_ask: Optional[OnAsk], timeout: float):
    """The run, as requests (EvalOn, Call, Emit, OpenControl); returns a RunResult."""
    if mode not in ("autonomous", "careful"):
        raise ValueError("mode must be 'autonomous' or 'careful'")
    if control is None:
        control = yield OpenControl()
    tab = yield EvalOn(control, TAB_JS, {"url": page.url})
    if tab == -1:  # several tabs at this URL: name ours for a moment
        nonce = f"sentience-agent-{time.monotonic_ns()}"
        old = yield EvalOn(page, TITLE_JS, nonce)
        tab = yield EvalOn(control, TAB_JS, {"title": nonce})
        yield EvalOn(page, TITLE_JS, old)
    if not isinstance(tab, int) or tab < 0:
        raise SentienceError(f"cannot find the page's tab ({page.url}); is it a page of this browser?")
    msg: Dict[str, Any] = {"type": "run-start", "task": task, "mode": mode, "tabId": tab}
    if url:
        msg["url"] = url
    started = yield EvalOn(control, SEND_JS, msg)
    if not isinstance(started, dict) or not isinstance(started.get("runId"), str):
        raise SentienceError(f"the run did not start: {(started or {}).get('error', started)}")
    run_id = started["runId"]
    key = f"run:{run_id}"
    follower = Follower()
    deadline = time.monotonic() + timeout
    rec: Optional[Dict[str, Any]] = None
    while True:
        if time.monotonic() > deadline:
            yield EvalOn(control, SEND_JS, {"type": "run-cancel", "runId": run_id})
            raise TimeoutError(f"the run {run_id} did not finish in {timeout:g} s (cancelled)")
        got = yield from next_record(control, key, rec)
        if not got:
            continue
        rec = got
        for s in follower.new_steps(rec):
            yield Emit(s)
        q = follower.question(rec)
        if q is not None:
            answer: Any = False
            if on_ask is not None:
                answer = yield Call(on_ask, q)
            reply: Dict[str, Any] = {"type": "run-answer", "runId": run_id, "approved": bool(answer)}
            if isinstance(answer, str) and answer:
                reply["answer"] = answer
            yield EvalOn(control, SEND_JS, reply)
        if rec.get("status") in TERMINAL:
            return RunResult(run_id, rec["status"], rec.get("result"), rec.get("error"), follower.steps, follower.answered, rec)
