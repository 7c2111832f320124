"""``Agent``: runs a task in a page through the run API (docs/contracts/run-api.md),
driven by the extension's own run loop (see _run.py); the async twin is
``sentience_sdk.aio.Agent``."""

from __future__ import annotations

import atexit
import os
import re
import subprocess
import tempfile
from typing import Any, Callable, Dict, Iterator, Optional

from ._assets import server_binary
from ._run import CONTROL_URL, RESTORE_SETTINGS_JS, SETTINGS_JS, Call, Emit, EvalOn, OnAsk, OpenControl, Question, RunResult, Step, run_task

__all__ = ["Agent", "Question", "RunResult", "Step", "AgentServer"]

# The LLM settings `sentience serve` reads (crates/cli/src/serve.rs).
_LLM_ENV = {"base_url": "LLM_BASE_URL", "api_key": "LLM_API_KEY", "model": "LLM_MODEL"}


class AgentServer:
    """A private `sentience serve` on a free loopback port (the bundled
    binary), runs kept in memory, stopped with ``stop()`` (and at exit).
    Without ``llm`` (or ``LLM_API_KEY`` in the environment) the built-in
    planner decides; ``llm={"base_url", "api_key", "model"}`` picks any
    OpenAI-compatible endpoint."""

    def __init__(self, llm: Optional[Dict[str, str]] = None, binary: Optional[str] = None) -> None:
        env = dict(os.environ)
        env.pop("PORT", None)
        for k, v in (llm or {}).items():
            if k not in _LLM_ENV:
                raise ValueError(f"llm: unknown key {k!r} (base_url, api_key, model)")
            env[_LLM_ENV[k]] = v
        # The server's log goes to a file (a pipe nobody reads would fill and
        # stall it), so a server that fails to start can say why.
        self._log = tempfile.TemporaryFile(mode="w+", prefix="sentience-serve-")
        self.proc = subprocess.Popen(
            [binary or server_binary(), "serve", "--port", "0", "--host", "127.0.0.1", "--in-memory"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=self._log,
            env=env,
            text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()  # "listening on http://ADDR" comes first
        m = re.search(r"listening on (http://\S+)", line)
        if not m:
            # An empty first line: the server exited, its log is complete.
            self._log.seek(0)
            said = self._log.read()[-2000:].strip()
            self.stop()
            raise RuntimeError(f"`sentience serve` did not start (first line: {line!r}; it said: {said or 'nothing'})")
        self.url = m.group(1).rstrip("/")
        atexit.register(self.stop)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()
        self._log.close()


def _settings(server_url: str, api_key: Optional[str]) -> Dict[str, Any]:
    return {"serverUrl": server_url, "apiKey": api_key or ""}


class Agent:
    """Runs tasks in ``page`` ("Log in as alice with password s3cret") with
    the agent server's planner (its built-in one, or the LLM it is
    configured with): the extension's service worker takes each step in the
    page, as when a person runs a task from the side panel.

    - ``server``: URL of a running ``sentience serve`` (API key:
      ``api_key``); default: a private server of its own (``AgentServer``),
      with ``llm`` settings if given.
    - ``mode``: ``"careful"`` asks before paying, deleting, sending, or
      entering secrets; ``on_ask(question) -> bool | str`` answers (without
      one, every question is refused, which cancels the run).
    - ``on_step(step)``: called with each step as it happens.

    ``run(task)`` returns a ``RunResult``; ``stream(task)`` yields the steps.
    """

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

    def _do(self, req: Any) -> Any:
        if isinstance(req, OpenControl):
            self._control = self.page.context.new_page()
            self._control.goto(CONTROL_URL)
            self._old_settings = self._control.evaluate(SETTINGS_JS, _settings(self.server_url, self._api_key))
            self.page.bring_to_front()
            return self._control
        if isinstance(req, EvalOn):
            return req.page.evaluate(req.js, req.arg)
        if isinstance(req, Call):
            return req.fn(req.arg)
        raise TypeError(f"unknown request {req!r}")

    def stream(self, task: str, *, url: Optional[str] = None, mode: Optional[str] = None, timeout: float = 600) -> Iterator[Step]:
        """Starts the run and yields each ``Step`` as it happens; the result
        is then in ``last_result``."""
        op = run_task(self.page, self._control, task, mode or self.mode, url, self.on_ask, timeout)
        try:
            req = next(op)
            while True:
                if isinstance(req, Emit):
                    if self.on_step:
                        self.on_step(req.step)
                    yield req.step
                    req = op.send(None)
                    continue
                try:
                    res = self._do(req)
                except Exception as e:
                    req = op.throw(e)
                    continue
                req = op.send(res)
        except StopIteration as stop:
            self.last_result = stop.value

    def run(self, task: str, *, url: Optional[str] = None, mode: Optional[str] = None, timeout: float = 600) -> RunResult:
        """Runs ``task`` in the page (first going to ``url``, when given) until it
        completes, fails or is cancelled; at most ``timeout`` seconds."""
        for _ in self.stream(task, url=url, mode=mode, timeout=timeout):
            pass
        assert self.last_result is not None
        return self.last_result

    def close(self) -> None:
        """Closes the control page (restoring the extension's settings) and
        stops the private server."""
        try:
            if self._control is not None and not self._control.is_closed():
                self._control.evaluate(RESTORE_SETTINGS_JS, self._old_settings)
                self._control.close()
        finally:
            self._control = None
            if self._own_server:
                self._own_server.stop()

    def __enter__(self) -> "Agent":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
