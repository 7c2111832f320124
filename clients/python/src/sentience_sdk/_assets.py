"""Where the packaged extension and the agent server binary are.

The wheel carries both (``_extension/``: manifest.json, extension/, pkg/
with the engine's WebAssembly; ``_bin/sentience``: the `sentience` binary,
for the Agent's own server). Nothing is ever downloaded.
``SENTIENCE_EXTENSION`` and ``SENTIENCE_BIN`` point elsewhere (a source
checkout after ``pkg-scripts/build.sh``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

_HERE = Path(__file__).resolve().parent

# Fixed by the manifest's "key".
EXTENSION_ID = "hogbpejkhkeecefhknbglfhofifoajbn"
SERVICE_WORKER_URL = f"chrome-extension://{EXTENSION_ID}/extension/service-worker.js"


def extension_dir() -> str:
    """The unpacked extension to load (a folder holding manifest.json)."""
    env = os.environ.get("SENTIENCE_EXTENSION")
    candidates = [Path(env)] if env else []
    candidates.append(_HERE / "_extension")
    for c in candidates:
        if (c / "manifest.json").is_file() and (c / "pkg" / "sentience_wasm_bg.wasm").is_file():
            return str(c)
    raise FileNotFoundError(
        "the Sentience extension is not in this installation of sentience_sdk "
        f"(looked in {', '.join(str(c) for c in candidates)}); install the wheel built by "
        "pkg-scripts/build.sh, or set SENTIENCE_EXTENSION to a built checkout"
    )


def server_binary() -> str:
    """The `sentience` binary the Agent starts its own server with."""
    env = os.environ.get("SENTIENCE_BIN")
    if env:
        return env
    bundled = _HERE / "_bin" / "sentience"
    if bundled.is_file():
        return str(bundled)
    found = shutil.which("sentience")
    if found:
        return found
    raise FileNotFoundError(
        "no `sentience` binary for the agent server: this wheel has none for this platform; "
        "pass Agent(page, server='http://127.0.0.1:3131') to use a running `sentience serve`, "
        "or set SENTIENCE_BIN"
    )


def default_chromium() -> "str | None":
    """$CHROMIUM, else Debian's /usr/bin/chromium when present, else None
    (Playwright's own Chromium, if `playwright install chromium` was run)."""
    env = os.environ.get("CHROMIUM")
    if env:
        return env
    for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if os.path.exists(p):
            return p
    return None
