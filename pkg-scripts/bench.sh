#!/usr/bin/env bash
# Snapshot benchmark: window.sentience.snapshot() vs the plain-JS floor
# (getBoundingClientRect + getComputedStyle per element, into open shadow
# roots and every frame) vs Playwright's ariaSnapshot(), and the
# service-worker engine path, on generated pages of ~1k / ~10k / ~50k /
# ~100k elements and on a page with 20 iframes (two origins, nested 3 deep)
# and 500 shadow roots (half closed), in one headless Chromium run; then the
# tab's JS heap over repeated snapshots (GC forced).
#   pkg-scripts/bench.sh            full run (several minutes); .bench/snapshot.json
#   pkg-scripts/bench.sh --smoke    1k elements + the frames page, 3 iterations (CI); .bench/snapshot-smoke.json
# Any other argument goes to tests/bench/snapshot-bench.mjs, e.g.
#   --sizes=1000,10000 (or none) --no-frames --iterations=9 --memory-repeats=10 --no-worker --no-breakdown --seed=2
source "$(dirname "$0")/env.sh"
cd "$ROOT"
[ -f pkg/sentience_wasm_bg.wasm ] || { log "pkg/ is missing: run pkg-scripts/build.sh wasm first"; exit 1; }
[ -d tests/node_modules/playwright-core ] || (cd tests && npm ci --no-audit --no-fund)
exec node tests/bench/snapshot-bench.mjs "$@"
