#!/usr/bin/env bash
# Prints the `html` folder of the `miniwob` PyPI package (MiniWoB++'s task
# pages), installing the package into .bench/venv when missing: only its
# pages are used, so without its Python dependencies (--no-deps). Used by
# `pkg-scripts/bench.sh miniwob` and `pkg-scripts/bench.sh hands-miniwob`.
source "$(dirname "$0")/../pkg-scripts/env.sh"
VENV="$ROOT/.bench/venv"
miniwob_html() {
  # find_spec locates the package without importing it (its __init__ needs gymnasium).
  "$VENV/bin/python" -c 'import importlib.util, os; s = importlib.util.find_spec("miniwob"); print(os.path.join(list(s.submodule_search_locations)[0], "html"))' 2>/dev/null
}
HTML="$(miniwob_html || true)"
if [ -z "$HTML" ] || [ ! -f "$HTML/core/core.js" ]; then
  log "installing miniwob into $VENV"
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps 'miniwob==1.1.0' >&2
  HTML="$(miniwob_html)"
fi
[ -f "$HTML/core/core.js" ] || { log "miniwob html not found in $VENV"; exit 1; }
printf '%s\n' "$HTML"
