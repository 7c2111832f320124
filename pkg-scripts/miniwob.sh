#!/usr/bin/env bash
# MiniWoB++ measurement of the built-in System 2 scorer through the full loop
# (extension service worker + `sentience serve`), issue 4's "Measure and
# report". Not a CI test.
#   pkg-scripts/miniwob.sh                         the default 34 tasks × 5 seeds (~5 min here)
#   pkg-scripts/miniwob.sh --tasks=click-button,login-user --seeds=3
# Other options go to tests/bench/miniwob.mjs: --max-steps=15 --max-seconds=20
#   --seed-base=0 --episode-ms=60000 --out=.bench/miniwob.json --verbose
# Installs the `miniwob` PyPI package (only its task pages are used, so
# without its Python dependencies) into .bench/venv when missing.
# Results: a table on stdout, JSON in .bench/miniwob.json.
#   pkg-scripts/miniwob.sh --protocol [same options]   the same tasks and seeds
#     through the HTML browse protocol (POST /browse, HTML only, built-in
#     policy; tests/bench/miniwob-browse.mjs), JSON in .bench/miniwob-browse.json.
source "$(dirname "$0")/env.sh"
cd "$ROOT"
[ -f pkg/sentience_wasm_bg.wasm ] || { log "pkg/ is missing: run pkg-scripts/build.sh first"; exit 1; }
[ -x target/release/sentience ] || { log "target/release/sentience is missing: run pkg-scripts/build.sh first"; exit 1; }
[ -d tests/node_modules/playwright-core ] || (cd tests && npm ci --no-audit --no-fund)

VENV="$ROOT/.bench/venv"
miniwob_html() {
  # find_spec locates the package without importing it (its __init__ needs gymnasium).
  "$VENV/bin/python" -c 'import importlib.util, os; s = importlib.util.find_spec("miniwob"); print(os.path.join(list(s.submodule_search_locations)[0], "html"))' 2>/dev/null
}
HTML="$(miniwob_html || true)"
if [ -z "$HTML" ] || [ ! -f "$HTML/core/core.js" ]; then
  log "installing miniwob into $VENV"
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps 'miniwob==1.1.0'
  HTML="$(miniwob_html)"
fi
[ -f "$HTML/core/core.js" ] || { log "miniwob html not found in $VENV"; exit 1; }
if [ "${1:-}" = "--protocol" ]; then
  shift
  exec node tests/bench/miniwob-browse.mjs --html="$HTML" "$@"
fi
exec node tests/bench/miniwob.mjs --html="$HTML" "$@"
