"""Fixtures of the SDK's tests: the installed sentience_sdk (the wheel, not
src/), a real Chromium (Debian's, $CHROMIUM) with the packaged extension,
and the project's pages served on two loopback origins (127.0.0.1 and
localhost: the same server, two origins, for cross-origin iframes)."""

from __future__ import annotations

import functools
import http.server
import os
import threading
from pathlib import Path
from typing import Dict, Iterator

import pytest

ROOT = Path(__file__).resolve().parents[3]
DEMO = ROOT / "demo"
PAGES = ROOT / "tests" / "pages"
# The strict policy real sites send (tests/lib/harness.mjs): no WebAssembly
# in the page or the content scripts.
STRICT_CSP = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'"

GENERATED: Dict[str, str] = {
    # An element that appears late, and one that goes away late.
    "/late.html": """<!doctype html><title>late</title><button id="stay">Stay</button><button id="go">Going</button>
<script>setTimeout(() => { const b = document.createElement('button'); b.textContent = 'Arrived'; document.body.append(b); document.getElementById('go').remove(); }, 400);</script>""",
    # A menu shown on hover only.
    "/hover.html": """<!doctype html><title>hover</title><style>#menu{display:none} #wrap:hover #menu{display:block}</style>
<div id="wrap"><button id="open">Products</button><div id="menu"><a href="#garden">Garden tools</a></div></div>
<div style="height:2000px"></div><button id="far">Far away</button>""",
}


def _handler(port_box: Dict[str, int]):
    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:  # quiet
            pass

        def translate_path(self, path: str) -> str:
            path = path.split("?")[0].split("#")[0]
            for prefix, root in (("/demo/", DEMO), ("/pages/", PAGES)):
                if path.startswith(prefix):
                    return str(root / path[len(prefix):])
            return str(DEMO / "missing")

        def do_GET(self) -> None:
            path = self.path.split("?")[0]
            body = None
            if path in GENERATED:
                body = GENERATED[path]
            elif path == "/frame.html":
                # A page of this origin embedding the demo's login page from the other origin.
                other = "localhost" if self.headers.get("Host", "").startswith("127.0.0.1") else "127.0.0.1"
                body = (
                    "<!doctype html><title>frame</title><h1>Outer</h1><button>Outer button</button>"
                    f'<iframe src="http://{other}:{port_box["port"]}/demo/login.html" width="600" height="400"></iframe>'
                )
            if body is not None:
                data = body.encode()
                self.send_response(200)
                self.send_header("content-type", "text/html; charset=utf-8")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return
            super().do_GET()

        def end_headers(self) -> None:
            if self.path.split("?")[0].endswith(".csp.html"):
                self.send_header("content-security-policy", STRICT_CSP)
            self.send_header("cache-control", "no-store")
            super().end_headers()

    return Handler


class Site:
    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"  # the trusted origin
        self.other = f"http://localhost:{port}"  # another origin, not trusted


@pytest.fixture(scope="session")
def site() -> Iterator[Site]:
    box: Dict[str, int] = {}
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _handler(box))
    box["port"] = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield Site(box["port"])
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser(site: Site):
    import sentience_sdk

    assert "src" not in Path(sentience_sdk.__file__).parts[-3:-1], "tests run against the installed wheel"
    b = sentience_sdk.launch(trust=[site.url], executable_path=os.environ.get("CHROMIUM") or None)
    yield b
    b.close()


@pytest.fixture()
def page(browser):
    p = browser.context.new_page()
    yield p
    p.close()
