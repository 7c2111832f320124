"""launch()'s options (headless, user_data_dir, storage_state,
executable_path) and connect(cdp_url), in the sync and async forms, each
against a Chromium of its own (one at a time).

Each runs in a thread of its own: the session's `browser` fixture keeps a
sync Playwright running in the test thread, and a second one cannot start
in a thread that has one."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

import sentience_sdk as s
from sentience_sdk import aio


def in_thread(fn: Callable[[], Any], timeout: float = 120) -> Any:
    box: dict = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as e:  # re-raised in the test
            box["error"] = e

    t = threading.Thread(target=run)
    t.start()
    t.join(timeout)
    assert not t.is_alive(), "hung"
    if "error" in box:
        raise box["error"]
    return box.get("value")


def chromium() -> str:
    found = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.skip("no Chromium on PATH or in $CHROMIUM")
    return found


# As Playwright does: Chromium refuses to run as root with its sandbox.
NO_SANDBOX = ["--no-sandbox"] if os.getuid() == 0 else []


def wait_for_devtools(proc: subprocess.Popen, profile: Path) -> str:
    """The CDP URL of a Chromium started with --remote-debugging-port=0."""
    port_file = profile / "DevToolsActivePort"
    for _ in range(600):
        if port_file.is_file() and port_file.read_text().strip():
            return f"http://127.0.0.1:{port_file.read_text().split()[0]}"
        assert proc.poll() is None, f"Chromium exited ({proc.returncode}) before opening its DevTools port"
        time.sleep(0.05)
    raise AssertionError("Chromium opened no DevTools port in 30 s")


def user_agent(browser: Any) -> str:
    return browser.page.evaluate("() => navigator.userAgent")


def test_executable_path_is_the_browser_started(tmp_path):
    # A wrapper that records being run, then runs the real Chromium.
    marker = tmp_path / "ran"
    wrapper = tmp_path / "my-chromium"
    wrapper.write_text(f'#!/bin/sh\necho "$@" > "{marker}"\nexec "{chromium()}" "$@"\n')
    wrapper.chmod(0o755)

    def run() -> str:
        with s.launch(executable_path=str(wrapper)) as b:
            return user_agent(b)

    assert "HeadlessChrome/" in in_thread(run)  # headless is the default
    assert "--load-extension=" in marker.read_text()
    with pytest.raises(Exception, match="no-such-chromium"):
        in_thread(lambda: s.launch(executable_path=str(tmp_path / "no-such-chromium")))


def test_headless_false_opens_a_window(tmp_path, monkeypatch):
    if not shutil.which("Xvfb"):
        pytest.skip("no Xvfb for a headed browser")
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-nolisten", "tcp", "-screen", "0", "1280x800x24"], pass_fds=(write,))
    os.close(write)
    try:
        display = os.read(read, 16).decode().strip()
        assert display, "Xvfb gave no display"
        monkeypatch.setenv("DISPLAY", f":{display}")

        def run() -> tuple:
            with s.launch(headless=False, executable_path=chromium()) as b:
                b.page.goto("about:blank")
                return user_agent(b), b.page.evaluate("() => window.outerWidth > 0 && document.visibilityState")

        ua, visible = in_thread(run)
        assert "HeadlessChrome" not in ua and "Chrome/" in ua
        assert visible == "visible"
    finally:
        os.close(read)
        xvfb.terminate()
        xvfb.wait(10)


def test_user_data_dir_keeps_the_profile(site, tmp_path):
    profile = tmp_path / "profile"

    def first() -> None:
        with s.launch(user_data_dir=str(profile), executable_path=chromium(), trust=[site.url]) as b:
            b.page.goto(f"{site.url}/demo/index.html")
            b.page.evaluate("() => { localStorage.setItem('kept', 'yes'); document.cookie = 'session=abc; max-age=3600; path=/'; }")
            # The settings page writes here too: the trusted list is kept with the profile.
            return b.worker.evaluate("async () => (await chrome.storage.local.get('trusted_origins')).trusted_origins")

    assert in_thread(first) == [site.url]
    assert profile.is_dir()  # a given profile is the user's: never deleted

    def second() -> tuple:
        with s.launch(user_data_dir=str(profile), executable_path=chromium()) as b:
            b.page.goto(f"{site.url}/demo/index.html")
            kept = b.page.evaluate("() => [localStorage.getItem('kept'), document.cookie]")
            trusted = b.worker.evaluate("async () => (await chrome.storage.local.get('trusted_origins')).trusted_origins")
            return kept, trusted

    (stored, cookie), trusted = in_thread(second)
    assert stored == "yes" and "session=abc" in cookie
    assert trusted == [site.url]


def test_the_default_profile_is_temporary():
    def run() -> str:
        b = s.launch(executable_path=chromium())
        folder = b._temp_dir
        assert folder and Path(folder).is_dir()
        b.close()
        return folder

    assert not Path(in_thread(run)).exists()


def storage_state(site: Any) -> dict:
    return {
        "cookies": [{"name": "token", "value": "t0k", "url": site.url}],
        "origins": [{"origin": site.url, "localStorage": [{"name": "theme", "value": "dark"}]}],
    }


def test_storage_state_from_a_dict_and_a_file(site, tmp_path):
    path = tmp_path / "state.json"
    path.write_text(json.dumps(storage_state(site)))

    def run(state: Any) -> list:
        with s.launch(storage_state=state, executable_path=chromium()) as b:
            b.page.goto(f"{site.url}/demo/index.html")
            seen = b.page.evaluate("() => [document.cookie, localStorage.getItem('theme')]")
            # The initial state, not a reset on every load: the page's own change stays.
            b.page.evaluate("() => localStorage.setItem('theme', 'light')")
            b.page.reload()
            return seen + [b.page.evaluate("() => localStorage.getItem('theme')")]

    assert in_thread(lambda: run(storage_state(site))) == ["token=t0k", "dark", "light"]
    assert in_thread(lambda: run(str(path))) == ["token=t0k", "dark", "light"]


def test_async_launch_with_its_options(site, tmp_path):
    profile = tmp_path / "profile"

    async def main() -> tuple:
        async with await aio.launch(
            headless=True, user_data_dir=str(profile), storage_state=storage_state(site), executable_path=chromium(), trust=site.url
        ) as b:
            await b.page.goto(f"{site.url}/frame.html")
            seen = await b.page.evaluate("() => [document.cookie, localStorage.getItem('theme'), navigator.userAgent]")
            snap = await aio.snapshot(b.page)
            return seen, [f.via for f in snap.frames.included]

    (cookie, theme, ua), frames = in_thread(lambda: asyncio.run(main()))
    assert (cookie, theme) == ("token=t0k", "dark") and "HeadlessChrome/" in ua
    assert frames == ["message"]  # trusted: the cross-origin frame is in
    assert profile.is_dir()


# ------------------------------------------------------------- connect


@pytest.fixture()
def running_chromium(tmp_path) -> Iterator[str]:
    """A Chromium started apart, with the packaged extension and a DevTools
    port; yields its CDP URL."""
    profile = tmp_path / "own-profile"
    proc = subprocess.Popen(
        [chromium(), "--headless", f"--user-data-dir={profile}", "--remote-debugging-port=0",
         f"--disable-extensions-except={s.extension_path()}", f"--load-extension={s.extension_path()}",
         "--no-first-run", "--disable-gpu", *NO_SANDBOX, "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        yield wait_for_devtools(proc, profile)
        assert proc.poll() is None, "the browser was closed, not only disconnected"
    finally:
        proc.terminate()
        proc.wait(10)


def test_connect_to_a_running_browser(site, running_chromium):
    def run() -> tuple:
        b = s.connect(running_chromium, trust=[site.url])
        try:
            b.page.goto(f"{site.url}/frame.html")
            snap = s.snapshot(b.page)
            user = s.find(b.page, "role=textbox text~user")
            typed = s.type_text(b.page, user, "dora")
            return [f.via for f in snap.frames.included], typed.success
        finally:
            b.close()

    frames, typed = in_thread(run)
    assert frames == ["message"] and typed

    async def main() -> str:
        b = await aio.connect(running_chromium)
        try:
            await b.page.goto(f"{site.url}/demo/login.html")
            return (await aio.find(b.page, "role=button")).text
        finally:
            await b.close()

    assert in_thread(lambda: asyncio.run(main())) == "Log in"


def test_connect_to_a_browser_without_the_extension(tmp_path):
    profile = tmp_path / "plain"
    proc = subprocess.Popen(
        [chromium(), "--headless", f"--user-data-dir={profile}", "--remote-debugging-port=0", "--no-first-run", *NO_SANDBOX, "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        url = wait_for_devtools(proc, profile)
        with pytest.raises(s.SentienceError, match="has no Sentience extension running"):
            in_thread(lambda: s.connect(url, timeout=2))
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_worker_wait_shares_no_predicate_between_sync_and_async():
    """Playwright caches the wrapper of a handler on the handler, bound to the
    API (sync or async) that wrapped it first. With one shared predicate, an
    async launch that waited for the worker after a sync launch had waited
    for it, in one process, got a sync Worker of its async connection, and
    its first call failed ("'NoneType' object has no attribute 'dead'";
    seen once in CI: test_async_launch_with_its_options). Each wait now
    hands Playwright a predicate of its own."""
    from playwright._impl._async_base import mapping as async_mapping
    from playwright._impl._sync_base import mapping as sync_mapping
    from sentience_sdk import _sync

    given: list = []

    class NoWorkerYet:  # the worker registers after the context opens
        service_workers: list = []

        def wait_for_event(self, event: str, predicate: Callable, timeout: float) -> str:
            given.append(predicate)
            return "worker"

    class NoWorkerYetAsync(NoWorkerYet):
        async def wait_for_event(self, event: str, predicate: Callable, timeout: float) -> str:  # type: ignore[override]
            given.append(predicate)
            return "worker"

    assert _sync._find_worker(NoWorkerYet(), 1000) == "worker"
    sync_wrapper = sync_mapping.wrap_handler(given[0])  # what the sync API passes on
    # In a thread: the session's sync Playwright runs an event loop in this one.
    assert in_thread(lambda: asyncio.run(aio._find_worker(NoWorkerYetAsync(), 1000))) == "worker"
    assert async_mapping.wrap_handler(given[1]) is not sync_wrapper
