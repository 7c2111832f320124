#!/usr/bin/env bash
# Static checks of the JavaScript (part of pkg-scripts/test.sh):
# - tsc --noEmit over each context the extension's scripts run in (the
#   isolated content-script world, the page's MAIN world, the service
#   worker, the popup, the options page: tests/tsconfig/*.json), checking
#   the files that start with `// @ts-check` against their JSDoc types,
#   extension/protocol.js's names and @types/chrome;
# - ESLint (tests/eslint.config.js) over extension/ and tests/.
# Both pinned in tests/package-lock.json.
source "$(dirname "$0")/env.sh"
cd "$ROOT"
[ -x tests/node_modules/.bin/tsc ] && [ -x tests/node_modules/.bin/eslint ] || (cd tests && npm ci --no-audit --no-fund --loglevel=error)
[ -f pkg/sentience_wasm.d.ts ] && [ -f pkg/sentience_query.d.ts ] && [ -f clients/hands/pkg/sentience_hands.d.ts ] || { log "wasm-bindgen's declarations are missing (pkg/*.d.ts, clients/hands/pkg/*.d.ts): run pkg-scripts/build.sh wasm first"; exit 1; }
status=0
for project in tests/tsconfig/*.json; do
  [ "$(basename "$project")" = base.json ] && continue
  tests/node_modules/.bin/tsc --noEmit -p "$project" || { log "tsc: $project failed"; status=1; }
done
tests/node_modules/.bin/eslint -c tests/eslint.config.js extension tests || { log "eslint failed"; status=1; }
[ "$status" = 0 ] && log "tsc (6 contexts, strict) and eslint: clean"
exit "$status"
