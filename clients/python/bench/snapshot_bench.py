"""Times one snapshot per page from Python (run by tests/bench/sdk-snapshot.mjs,
`bash pkg-scripts/bench.sh sdk`; docs/benchmarks.md "SDK packages").

--impl ours       sentience_sdk.snapshot(page) vs a bare page.evaluate of
                  window.sentience.snapshot() (object, and as JSON text) vs
                  Playwright's ariaSnapshot(), in Chromium with our extension
--impl reference  the reference package's snapshot(browser) (sentienceapi,
                  its defaults) vs a bare page.evaluate on its extension

Prints one JSON object: {page: {method: [ms, …]}}.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def timed(fn, runs):
    fn()  # warm-up (the engine's first compile, the page's first layout)
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


class _Canned:
    """A page whose evaluate answers a fixed text (for the layer-only timing)."""

    def __init__(self, text):
        self.text = text

    def evaluate(self, js, arg=None):
        return self.text


def bench_ours(urls, runs, args):
    import sentience_sdk as s

    results = {}
    with s.launch(executable_path=CHROMIUM, args=args) as browser:
        page = browser.page
        for name, url in urls:
            page.goto(url, wait_until="load")
            page.wait_for_function("() => typeof window.sentience === 'object'")
            r = {}
            r["bare_evaluate"] = timed(lambda: page.evaluate("() => window.sentience.snapshot()"), runs)
            r["bare_evaluate_json"] = timed(lambda: json.loads(page.evaluate("async () => JSON.stringify(await window.sentience.snapshot())")), runs)
            r["sdk_snapshot"] = timed(lambda: s.snapshot(page), runs)
            r["sdk_snapshot_read_all"] = timed(lambda: [e.id for e in s.snapshot(page).elements], runs)
            r["aria_snapshot"] = timed(lambda: page.locator("body").aria_snapshot(), runs)
            r["elements"] = len(s.snapshot(page).elements)
            # The package's own layer, without the browser: the same call
            # over a stand-in page whose evaluate returns the page's JSON
            # text at once, against json.loads of that text alone.
            text = page.evaluate("async () => JSON.stringify(await window.sentience.snapshot())")
            canned = _Canned(text)
            r["layer_json_loads"] = timed(lambda: json.loads(text), max(runs, 20))
            r["layer_sdk_snapshot"] = timed(lambda: s.snapshot(canned), max(runs, 20))
            results[name] = r
            print(f"  python ours {name}: done", file=sys.stderr)
    return results


def bench_reference(urls, runs, args):
    from playwright.sync_api import sync_playwright
    from sentience import SentienceBrowser, snapshot
    from sentience._extension_loader import find_extension_path

    results = {}
    ext = find_extension_path()
    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            headless=True,
            viewport={"width": 1280, "height": 800},
            args=[f"--disable-extensions-except={ext}", f"--load-extension={ext}", "--no-first-run", *args],
        )
        browser = SentienceBrowser.from_existing(context)
        page = browser.page
        for name, url in urls:
            page.goto(url, wait_until="load")
            page.wait_for_function("() => typeof window.sentience === 'object' && typeof window.sentience.snapshot === 'function'", timeout=15000)
            r = {}
            r["reference_snapshot"] = timed(lambda: snapshot(browser), runs)
            r["reference_bare_evaluate"] = timed(lambda: page.evaluate("() => window.sentience.snapshot()"), runs)
            r["reference_elements"] = len(snapshot(browser).elements)
            results[name] = r
            print(f"  python reference {name}: done", file=sys.stderr)
        context.close()
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--impl", choices=["ours", "reference"], required=True)
    ap.add_argument("--urls", required=True, help="a JSON file: [[name, url], …]")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--arg", action="append", default=[], help="an extra Chromium switch")
    a = ap.parse_args()
    with open(a.urls) as f:
        urls = json.load(f)
    fn = bench_ours if a.impl == "ours" else bench_reference
    print(json.dumps(fn(urls, a.runs, a.arg)))


if __name__ == "__main__":
    main()
