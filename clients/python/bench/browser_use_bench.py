"""What the browser-use adapter costs per action (`bash pkg-scripts/bench.sh
sdk-browser-use [--runs=30]`; docs/benchmarks.md "SDK packages"), side by
side in one run, in one browser-use session (Chromium with the extension),
on pages of the demo store and of tests/pages served locally:

- ``sentience_snapshot`` as the agent calls it: browser-use's action
  dispatch, our own CDP connection opened, attached, closed;
- the same operation (``format()``) over one CDP connection kept open: the
  connection's share is the difference;
- browser-use's own DOM state for the same page (what its agent builds
  before every step, ``get_browser_state_summary``), for scale.

Prints a table of medians (ms) and the element counts.
"""

import argparse
import asyncio
import atexit
import http.server
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ["ANONYMIZED_TELEMETRY"] = "false"
os.environ["BROWSER_USE_VERSION_CHECK"] = "false"
os.environ.setdefault("BROWSER_USE_SETUP_LOGGING", "false")
# browser-use leaves its temporary profile and download folders behind:
# in a scratch folder of this run, removed at exit.
tempfile.tempdir = tempfile.mkdtemp(prefix="sentience-browser-use-bench-")
atexit.register(shutil.rmtree, tempfile.tempdir, True)

from browser_use import Tools  # noqa: E402

from sentience_sdk import _ops  # noqa: E402
from sentience_sdk._io import drive_async  # noqa: E402
from sentience_sdk.adapters import _cdp  # noqa: E402
from sentience_sdk.adapters.browser_use import sentience_browser_session, sentience_tools  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
PAGES = ["demo/login.html", "demo/index.html", "demo/checkout.html", "tests/pages/card-grid.html", "tests/pages/labels.html"]


async def timed(fn, runs):
    await fn()  # warm-up
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        await fn()
        out.append((time.perf_counter() - t) * 1000)
    return statistics.median(out)


async def main(runs: int) -> None:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **k):
            super().__init__(*a, directory=str(ROOT), **k)

        def log_message(self, *a):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    session = sentience_browser_session(executable_path=os.environ.get("CHROMIUM") or None)
    await session.start()
    tools = sentience_tools(Tools())
    print(f"median of {runs} runs after one warm-up, ms", file=sys.stderr)
    print("| page | listed elements | `sentience_snapshot` action | same op, connection kept open | browser-use DOM state |")
    print("|---|---|---|---|---|")
    try:
        for page in PAGES:
            await session.navigate_to(f"http://127.0.0.1:{server.server_address[1]}/{page}")
            target = (await session.get_or_create_cdp_session()).target_id
            listing = (await tools.sentience_snapshot(browser_session=session)).extracted_content or ""
            action = await timed(lambda: tools.sentience_snapshot(browser_session=session), runs)
            world = await _cdp.ExtensionWorld.open(session.cdp_url, target)
            try:
                kept = await timed(lambda: drive_async(world.do, _ops.format_(1000, True, {})), runs)
            finally:
                await world.close()
            state = await timed(lambda: session.get_browser_state_summary(include_screenshot=False), runs)
            listed = sum(1 for line in listing.splitlines() if line[:1].isdigit())
            print(f"| {page} | {listed} | {action:.1f} | {kept:.1f} | {state:.1f} |")
    finally:
        await session.kill()
        server.shutdown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    asyncio.run(main(parser.parse_args().runs))
