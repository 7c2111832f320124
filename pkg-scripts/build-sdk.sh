#!/usr/bin/env bash
# The SDK packages (clients/python, clients/playwright; docs/sdk.md), from the
# built extension (pkg/) and CLI (target/release/sentience): run by build.sh
# after both are built.
#   dist/sentience_sdk-VERSION-py3-none-manylinux_2_N_ARCH.whl   the Python wheel: the
#        extension (manifest.json, extension/, pkg/) and the stripped `sentience`
#        binary inside (the Agent's own server); nothing is downloaded at run time
#   clients/playwright/dist/                                    the TypeScript package (ESM + .d.ts)
source "$(dirname "$0")/env.sh"
cd "$ROOT"

py=clients/python
venv=$py/.venv
# Without the tools (setup.sh not run since the SDK came in), skip rather
# than fail the rest of the build; test-sdk.sh then says the wheel is missing.
[ -x "$venv/bin/python" ] && [ -d clients/playwright/node_modules/typescript ] ||
  { log "skipping the SDK packages: $venv or clients/playwright/node_modules is missing (run pkg-scripts/setup.sh)"; exit 0; }
[ -f pkg/sentience_wasm_bg.wasm ] && [ -x target/release/sentience ] || { log "build the extension and the CLI first (pkg-scripts/build.sh)"; exit 1; }

log "staging the extension and the sentience binary into $py/src/sentience_sdk"
stage=$py/src/sentience_sdk
rm -rf "$stage/_extension" "$stage/_bin"
mkdir -p "$stage/_extension" "$stage/_bin"
cp manifest.json "$stage/_extension/"
cp -r extension pkg "$stage/_extension/"
# Symbols are of no use to users: the binary shrinks by a fifth.
strip -o "$stage/_bin/sentience" target/release/sentience 2>/dev/null || cp target/release/sentience "$stage/_bin/sentience"
chmod +x "$stage/_bin/sentience"

log "building the Python wheel (hatchling, no network)"
rm -f dist/sentience_sdk-*.whl
"$venv/bin/python" -m pip wheel -q --disable-pip-version-check --no-deps --no-build-isolation -w dist "$py" >/dev/null
log "$(ls dist/sentience_sdk-*.whl): $(stat -c %s dist/sentience_sdk-*.whl) bytes"

ts=clients/playwright
log "building the TypeScript package ($ts/dist: ESM + .d.ts)"
(cd "$ts" && rm -rf dist && node node_modules/typescript/bin/tsc -p tsconfig.json)
# The extension goes in the npm package too (package.json "files").
rm -rf "$ts/sentience-extension" && mkdir -p "$ts/sentience-extension"
cp -r manifest.json extension pkg "$ts/sentience-extension/"
