#!/usr/bin/env bash
# The SDK packages' tests (docs/sdk.md), after pkg-scripts/build.sh:
#   1. pytest (clients/python/tests) against the wheel installed in clients/python/.venv
#   2. node --test (clients/playwright/test), incl. the Playwright Test fixture
#   3. the wheel in a fresh virtual environment, in a folder with no access to
#      the source tree, running the README's quick start; then its [langchain]
#      extra installed there, the adapter's tools clicking
#   4. the same for `npm pack` of the TypeScript package, and a typed user file
#      checked by tsc (strict, libraries checked) against the installed .d.ts
# Real Chromium ($CHROMIUM, Debian's /usr/bin/chromium) with the packaged extension.
#   pkg-scripts/test-sdk.sh [python|typescript|fresh]   one part only
source "$(dirname "$0")/env.sh"
cd "$ROOT"
part=${1:-all}
venv=clients/python/.venv
wheel=$(ls dist/sentience_sdk-*.whl 2>/dev/null | head -1)
[ -n "$wheel" ] || { log "no wheel in dist/: run pkg-scripts/build.sh"; exit 1; }

if [ "$part" = all ] || [ "$part" = python ]; then
  log "SDK: pytest against the installed wheel (~1 min)"
  "$venv/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps "$wheel"
  (cd clients/python/tests && ../.venv/bin/python -m pytest -q -p no:cacheprovider)
  "$venv/bin/python" clients/python/tools/apidoc.py --check
fi

if [ "$part" = all ] || [ "$part" = typescript ]; then
  log "SDK: node --test clients/playwright/test (~30 s)"
  (cd clients/playwright && node --test --test-concurrency=1 test/ && node tools/apidoc.mjs --check)
fi

# A page of our own in the fresh folders: the quick starts open example.com,
# which these machines cannot reach, so it is served here and substituted.
serve_quickstart_page() { # dir → sets $url and $page_pid
  printf '<!doctype html><title>Quick start</title><h1>Example</h1><a href="#more">More information</a><button>Go</button>' >"$1/index.html"
  python3 -m http.server 0 --bind 127.0.0.1 --directory "$1" >"$1/server.log" 2>&1 &
  page_pid=$!
  for _ in $(seq 50); do
    port=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$1/server.log" | head -1)
    [ -n "$port" ] && break
    sleep 0.1
  done
  url="http://127.0.0.1:$port/index.html"
}
# The first fenced block of README.md in language $2, with example.com replaced.
quickstart() { # readme lang url
  awk -v lang="$2" '$0 == "```" lang {on=1; next} on && /^```/ {exit} on {print}' "$1" | sed "s#https://example.com#$3#"
}

if [ "$part" = all ] || [ "$part" = fresh ]; then
  tmp=$(mktemp -d)
  page_pid=
  trap 'kill $page_pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
  serve_quickstart_page "$tmp"
  log "SDK: the wheel in a fresh venv, outside the source tree, runs the README's quick start"
  python3 -m venv "$tmp/venv"
  "$tmp/venv/bin/pip" install -q --disable-pip-version-check "$wheel"
  quickstart clients/python/README.md python "$url" >"$tmp/quickstart.py"
  (cd "$tmp" && env -u SENTIENCE_EXTENSION -u SENTIENCE_BIN -u PYTHONPATH "$tmp/venv/bin/python" quickstart.py | tee "$tmp/py.out")
  grep -q "^Element(" "$tmp/py.out" && grep -q "success=True" "$tmp/py.out" || { log "the Python quick start printed no element or no successful click"; exit 1; }

  log "SDK: the [langchain] extra in that venv brings what its adapter needs (the quick start above ran without it)"
  # The pinned packages setup.sh cached (langchain-core 1.8.1 and its
  # dependencies); the registry only if the cache lacks one.
  wheels="${XDG_CACHE_HOME:-$HOME/.cache}/sentience/sdk-wheels"
  "$tmp/venv/bin/pip" install -q --disable-pip-version-check --no-index --find-links "$wheels" "$wheel[langchain]" 2>/dev/null ||
    "$tmp/venv/bin/pip" install -q --disable-pip-version-check "$wheel[langchain]"
  cat >"$tmp/langchain_tools.py" <<PY
import json
from sentience_sdk import launch
from sentience_sdk.adapters.langchain import sentience_tools
with launch() as browser:
    browser.page.goto("$url")
    tools = {t.name: t for t in sentience_tools(browser.page)}
    link = json.loads(tools["find"].invoke({"query": "role=link"}))[0]
    print(tools["click"].invoke({"element_id": link["id"]}))
PY
  (cd "$tmp" && env -u SENTIENCE_EXTENSION -u PYTHONPATH "$tmp/venv/bin/python" langchain_tools.py | tee "$tmp/lc.out")
  grep -q "^ok" "$tmp/lc.out" || { log "the LangChain tools did not click in the fresh venv"; exit 1; }

  log "SDK: npm pack of the TypeScript package, installed in a fresh folder, runs the README's quick start"
  tarball=$(cd clients/playwright && npm pack --silent --pack-destination "$tmp" | tail -1)
  mkdir -p "$tmp/ts" && cd "$tmp/ts"
  npm init -y >/dev/null
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --loglevel=error "$tmp/$tarball" playwright-core@1.65.1 >/dev/null
  quickstart "$ROOT/clients/playwright/README.md" js "$url" >quickstart.mjs
  env -u SENTIENCE_EXTENSION node quickstart.mjs | tee "$tmp/ts.out"
  grep -q "role: '" "$tmp/ts.out" && grep -q "success: true" "$tmp/ts.out" || { log "the TypeScript quick start printed no element or no successful click"; exit 1; }

  log "SDK: a TypeScript user's code type-checks against the installed package's .d.ts (strict, libraries checked)"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --prefer-offline --loglevel=error typescript@5.9.3 @types/node@22.15.30 @playwright/test@1.65.1 >/dev/null
  cat >check.mts <<'TS'
import { launch, snapshot, find, click, expect, type Snapshot, type Element, type ActionResult } from 'sentience-playwright';
import { test } from 'sentience-playwright/test';
const browser = await launch({ headless: true, userDataDir: '/tmp/p', storageState: { cookies: [] }, executablePath: '/usr/bin/chromium', trust: ['http://localhost:3000'] });
const snap: Snapshot = await snapshot(browser.page, { limit: 5, filter: { allowed_roles: ['button'] } });
const role: Element['role'] = snap.elements[0].role;
const viewport: number = snap.elements[0].bbox.width + snap.viewport.height;
// @ts-expect-error a field the contract does not have
snap.elements[0].rol;
// @ts-expect-error a role the contract does not have
const bad: Element['role'] = 'slider';
const el = await find(browser.page, 'role=link');
const result: ActionResult = await click(browser.page, el!);
const outcome: 'navigated' | 'dom_changed' | 'none' = result.outcome;
await expect(browser.page).toHave('role=link');
test('typed fixture', async ({ sentience }) => { const s: Snapshot = await sentience.snapshot(); void s; });
void [role, viewport, bad, outcome];
TS
  node node_modules/typescript/bin/tsc --noEmit --strict --skipLibCheck false --module nodenext --moduleResolution nodenext --target es2022 --types node check.mts
  cd "$ROOT"
fi
log "SDK tests done"
