#!/usr/bin/env bash
# Installs everything the build and the tests need on a fresh Debian machine
# (see ../shared/TOOLCHAIN.md). Idempotent: a second run only checks.
source "$(dirname "$0")/env.sh"

need_apt=()
have() { command -v "$1" >/dev/null 2>&1; }
have "$CHROMIUM" || need_apt+=(chromium chromium-driver)
have wasm-opt || need_apt+=(binaryen)
have node || need_apt+=(nodejs)
have npm || need_apt+=(npm)
have python3 || need_apt+=(python3)
# The Python SDK's virtual environment (clients/python/.venv, below).
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need_apt+=(python3-venv)
# The tool server's desktop tests (crates/tool-server/tests) run under Xvfb.
have Xvfb || need_apt+=(xvfb)
have cc || need_apt+=(gcc libc6-dev)
# No rustup wasm32 target (the case on these machines): Debian's rustc-web
# with the std sources builds it with -Zbuild-std; rust-lld comes from lld-22.
if ! (have rustup && rustup target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$'); then
  [ -x /usr/bin/rustc ] && [ -d /usr/lib/rustlib/src/rust/library ] || need_apt+=(rustc-web rust-web-src)
  [ -e /usr/bin/rust-lld ] && /usr/bin/rust-lld -flavor wasm --version >/dev/null 2>&1 || need_apt+=(lld-22)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  log "apt-get install ${need_apt[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

have cargo || { echo "cargo not found: install Rust with rustup first (https://rustup.rs)" >&2; exit 1; }

want="$(wasm_bindgen_version)"
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$want" ]; then
  log "cargo install wasm-bindgen-cli $want (a few minutes, once)"
  cargo install -q wasm-bindgen-cli --version "$want"
fi

if [ ! -d "$ROOT/tests/node_modules/playwright-core" ] || [ "$ROOT/tests/package-lock.json" -nt "$ROOT/tests/node_modules/.package-lock.json" ]; then
  log "npm ci (tests: playwright-core driving /usr/bin/chromium, ajv)"
  (cd "$ROOT/tests" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
fi

# ---- SDK packages (clients/python, clients/playwright; docs/sdk.md) ----
# Python: a venv with the build and test tools pinned by requirements-dev.txt
# (remade when that file changes); TypeScript: npm ci from its package-lock.json.
# The venv lives in the checkout, so every fresh clone (CI's) makes it anew;
# its ~125 wheels (~115 MB, browser-use's tree most of them) are downloaded
# once per machine and version of requirements-dev.txt into a wheel cache
# outside the checkout, and installed from there without the network.
sdk_venv="$ROOT/clients/python/.venv"
sdk_reqs="$ROOT/clients/python/requirements-dev.txt"
if [ ! -x "$sdk_venv/bin/python" ] || [ "$sdk_reqs" -nt "$sdk_venv/.installed" ]; then
  log "python venv clients/python/.venv (playwright, pytest, hatchling, langchain-core, browser-use; pinned)"
  rm -rf "$sdk_venv"
  python3 -m venv "$sdk_venv"
  pip=("$sdk_venv/bin/pip" -q --disable-pip-version-check)
  wheels="${XDG_CACHE_HOME:-$HOME/.cache}/sentience/sdk-wheels"
  stamp="$wheels/.complete-$(sha256sum "$sdk_reqs" | cut -c1-16)"
  mkdir -p "$wheels"
  if [ ! -f "$stamp" ]; then
    log "downloading the SDK's pinned dev packages into $wheels (once per machine and requirements-dev.txt, ~1 min)"
    # One download at a time: other checkouts of this machine share the cache.
    flock "$wheels/.lock" "${pip[@]}" download -d "$wheels" -r "$sdk_reqs" >/dev/null
    touch "$stamp"
  fi
  # --no-compile: Python compiles what is imported when it is (a fraction of
  # browser-use's tree), not all ~10,000 modules up front.
  "${pip[@]}" install --no-compile --no-index --find-links "$wheels" -r "$sdk_reqs" ||
    { log "the wheel cache $wheels lacks a package: installing from the registry"; "${pip[@]}" install --no-compile -r "$sdk_reqs"; }
  touch "$sdk_venv/.installed"
fi
sdk_ts="$ROOT/clients/playwright"
if [ ! -d "$sdk_ts/node_modules/playwright-core" ] || [ "$sdk_ts/package-lock.json" -nt "$sdk_ts/node_modules/.package-lock.json" ]; then
  log "npm ci (clients/playwright: typescript, playwright-core, @playwright/test)"
  (cd "$sdk_ts" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
fi
log "setup done"
