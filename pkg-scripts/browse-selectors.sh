#!/usr/bin/env bash
# Selector uniqueness of the HTML browse protocol on real saved pages: every
# element the policies could choose, its selector matched in Chromium
# (tests/bench/browse-selectors.mjs). Downloads the pinned page archives on
# first use (as pkg-scripts/real-pages.sh does). Not a CI test.
#   pkg-scripts/browse-selectors.sh [--verbose]   table on stdout, JSON in .bench/browse-selectors.json
source "$(dirname "$0")/env.sh"
cd "$ROOT"
[ -x target/release/sentience ] || { log "target/release/sentience is missing: run pkg-scripts/build.sh first"; exit 1; }
[ -d tests/node_modules/playwright-core ] || (cd tests && npm ci --no-audit --no-fund)
exec node tests/bench/browse-selectors.mjs "$@"
