#!/usr/bin/env bash
# Every benchmark of the project, from one entry point (docs/benchmarks.md).
#   pkg-scripts/bench.sh                  lists them: name, how long a run takes, what it measures
#   pkg-scripts/bench.sh NAME [args…]     runs one; args go to it (see its line and its file)
#   pkg-scripts/bench.sh --smoke          the same as `snapshot --smoke` (older form; CI runs `snapshot --smoke`)
# Where they live: the browser benchmarks are Node programs in tests/bench/
# (they share the end-to-end suites' harness, tests/lib/, and
# tests/node_modules); the Rust ones are examples of their crate
# (crates/*/examples/) or the `sentience bench-server` command; the web-sys
# probe is a crate of its own in bench/websys-probe/, and bench/ holds the
# set-up scripts (the probe's build, MiniWoB++'s pages). Not benchmarks of
# their own: tests/bench/generated-world.mjs and oracle-plain.js (helpers
# of the walker-* ones), websys-vs-walker.mjs (run by websys-probe), and
# crates/browse/examples/distill.rs (prints what the browse LLM policy
# sees; run by browse-tokens; `sentience browse-candidates` lists what
# either policy could choose). Results go to
# stdout and, for most, JSON in .bench/ (git-ignored). None is a test:
# they assert nothing, and only `snapshot --smoke` and `format-tokens` run
# in pkg-scripts/test.sh.
source "$(dirname "$0")/env.sh"
cd "$ROOT"

# name | time of a default run on this 2-core machine | what it measures.
# One line each; the runner is the function bench_<name> below (dashes as
# underscores).
BENCHES=(
  "snapshot|~6 min (--smoke ~30 s)|snapshot() vs the plain-JS floor vs Playwright's ariaSnapshot(): 1k/10k/50k/100k elements + the frames page, then memory; .bench/snapshot.json"
  "format-tokens|~25 s|tokens of format() vs ariaSnapshot() vs the contract JSON on the fixture pages and the demo store (also run by test.sh)"
  "frames|~25 s|snapshot time on a page of 20 iframes (two origins) × ~500 elements vs the floor; args: [frames] [elements] [runs]"
  "real-pages|~4 min (first run downloads pages)|27 real saved pages: floor, first and warm snapshot, frames skipped and why, recall of Chromium's AX tree; needs the registry once"
  "install-cost|~8 min (first run downloads pages and the reference extension)|what merely being installed costs each of the 27 real saved pages, no snapshot requested: script time, JS heap and load time added, against no extension and the reference extension, alternating; needs the registry once"
  "real-pages-tokens|~2 min (first run downloads pages)|format() vs ariaSnapshot() tokens on 18 real saved pages, task elements checked; needs the registry once"
  "miniwob|~10 min (a split ~5 min)|MiniWoB++ (64 tasks × 5 seeds; --split=train|validation|project): the built-in planner through the extension's run loop and \`sentience serve\`, per task and per split; needs the registry once"
  "miniwob-browse|~12 min (a split ~6 min)|MiniWoB++ (the same tasks, splits and seeds) through the HTML browse protocol: HTML only, POST /browse, built-in policy; needs the registry once"
  "realistic|~6–12 min per surface|the realistic page set (140 pages modelled on real sites × 3 phrasings, 30 of them markup, layout, design-system or app-structure variants of training pages; --split=train|validation, --surface=run|act|browse; --paraphrases: the training pages' paraphrases instead): the built-in agent, per task and per split"
  "browse-tokens|~30 s + first build ~2 min|tokens of the browse LLM policy's distilled page (cargo example distill) vs the raw HTML on the 27 real saved pages, with and without the 6,000-token budget; needs the registry once"
  "browse-server|~10 s + first build ~2 min|the browse server's time per answer on generated pages of ~1k and ~10k elements: built-in policy step, LLM listing, candidates list (cargo example bench of sentience-browse) [runs]"
  "browse-selectors|~1 min (first run downloads pages)|every selector the browse policies could send, checked in Chromium's querySelectorAll on the 27 real saved pages (exits 1 on any failure; run by test.sh); needs the registry once"
  "hands-act|~1 min|\`sentience act\` on the demo site (4 tasks × 5 episodes): success, steps, healed clicks, client time per step"
  "hands-miniwob|~10 min (a split ~5 min)|\`sentience act\` on MiniWoB++ pages through \`sentience tools\` (the same 64 tasks and splits, --split=…); needs the registry once"
  "tools|~3 min (--smoke ~30 s)|the tool server's latency (p50/p95) vs Playwright and pyautogui doing the same (tests/bench/tools-bench.mjs)"
  "mcp|~4 min (first run downloads pages)|\`sentience mcp\` vs Playwright MCP, same client, one run: browser_snapshot tokens on the 27 real saved pages (task elements checked), tokens per completed task, time per call; .bench/mcp.json [--repeat N]; needs the registry once"
  "mcp-listing|~20 s + first build ~1 min (the first run also captures the pages' snapshots in Chromium)|the \`browser_snapshot\` listing of the 27 real saved pages, offline, as \`sentience mcp\` lists them: o200k tokens and task elements per page and per half of the design / held-out split (--split=design|held-out|all, --budget=N, --mode=enough|budget, --capture to take the snapshots again); needs the registry once"
  "server|~2 min|\`sentience bench-server\`: the agent server's /step latency and throughput at 1/50/500 concurrent runs over loopback HTTP, and live-stream delivery, on SQLite, PostgreSQL, and 3 PostgreSQL replicas behind a round-robin proxy (starts its own PostgreSQL; args go to bench-server, e.g. --synchronous-commit off)"
  "pg-driver|~1 min + first build ~2 min|the agent server's step transaction on PostgreSQL through sqlx vs tokio-postgres + deadpool (bench/pg-driver-probe) [concurrency] [transactions] [rounds]"
  "step-cost|~5 s + first build ~4 min|the CPU work of one /step, phase by phase, without HTTP (cargo example step_cost)"
  "resize|~5 s + first build ~3 min|1920×1080 → 1260×700 resize + PNG encode of a screenshot (cargo example resize_bench) [frame.png]"
  "engine-time|~10 s + first build ~4 min|the engine alone, natively, stage by stage, on a walk dumped from a page (cargo example engine_time) RAW.json [iterations]"
  "websys-probe|~6 min (build) / ~1 min (--no-build)|web-sys vs the JS walker: the same DOM reads from Rust and from JS, 1k and 10k elements"
  "walker-variants|~1 min|ad hoc: the marginal cost of each kind of DOM read in the isolated world [elements]"
  "walker-ablation|~2 min|ad hoc: the walker with one part switched off at a time [elements] [variants]"
  "walker-profile|~1 min|ad hoc: CPU profile of the walk (or of whole snapshots, --snapshot): self time per function and line [elements | --real[=pages]]"
  "sdk|~6 min (first run installs the reference package)|snapshot() from the Python and TypeScript packages vs a bare page.evaluate, ariaSnapshot() and the reference package's snapshot(browser) (sentienceapi), 10k generated + 27 real pages; .bench/sdk-snapshot.json [--runs=5] [--pages=N] [--no-reference]"
  "sdk-browser-use|~30 s|the browser-use adapter: its sentience_snapshot action (own CDP connection each call) vs the same operation over a kept-open connection vs browser-use's own DOM state, on 5 local pages [--runs=30]"
  "plain-real-pages|~1 min|ad hoc: the plain-element analysis on the cached real pages (run real-pages first)"
)

list() {
  printf 'Benchmarks (bash pkg-scripts/bench.sh NAME [args]; docs/benchmarks.md):\n'
  local entry name time what
  for entry in "${BENCHES[@]}"; do
    IFS='|' read -r name time what <<<"$entry"
    printf '  %-18s %-36s %s\n' "$name" "$time" "$what"
  done
}

need_pkg() { [ -f pkg/sentience_wasm_bg.wasm ] || { log "pkg/ is missing: run pkg-scripts/build.sh wasm first"; exit 1; }; }
need_bin() { [ -x target/release/sentience ] || { log "target/release/sentience is missing: run pkg-scripts/build.sh first"; exit 1; }; }
need_npm() { [ -d tests/node_modules/playwright-core ] && [ -d tests/node_modules/gpt-tokenizer ] || (cd tests && npm ci --no-audit --no-fund --loglevel=error); }
# A Node benchmark of tests/bench, run from tests/ (ad-hoc ones read
# relative paths such as ABLATE_SETUP=bench/oracle-plain.js from there).
node_bench() {
  local file=$1
  shift
  need_pkg
  need_npm
  cd tests && exec node "bench/$file" "$@"
}

bench_snapshot() { node_bench snapshot-bench.mjs "$@"; }
bench_format_tokens() { node_bench format-tokens.mjs "$@"; }
bench_frames() { node_bench frames-measure.mjs "$@"; }
bench_real_pages() { node_bench real-pages-snapshot.mjs "$@"; }
bench_install_cost() { node_bench install-cost.mjs "$@"; }
bench_real_pages_tokens() { node_bench real-pages.mjs "$@"; }
bench_miniwob() {
  need_bin
  local html
  html="$(bash bench/miniwob-html.sh)"
  node_bench miniwob.mjs --html="$html" "$@"
}
bench_miniwob_browse() {
  need_bin
  local html
  html="$(bash bench/miniwob-html.sh)"
  node_bench miniwob-browse.mjs --html="$html" "$@"
}
bench_realistic() { need_bin; node_bench realistic.mjs "$@"; }
bench_browse_tokens() {
  cargo build -q --release -p sentience-browse --example distill
  node_bench browse-tokens.mjs "$@"
}
bench_browse_server() { exec cargo run -q --release -p sentience-browse --example bench -- "$@"; }
bench_browse_selectors() { need_bin; node_bench browse-selectors.mjs "$@"; }
bench_hands_act() { need_bin; node_bench hands-act.mjs "$@"; }
bench_hands_miniwob() {
  need_bin
  local html
  html="$(bash bench/miniwob-html.sh)"
  node_bench hands-miniwob.mjs --html="$html" "$@"
}
# The desktop comparison's Python (pyautogui + PIL), pinned, made once.
tools_venv() {
  local venv=.bench/tools-venv
  [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import pyautogui, PIL' 2>/dev/null && return 0
  log "making $venv (pyautogui + pillow, for the desktop comparison; once)"
  rm -rf "$venv"
  python3 -m venv "$venv" && "$venv/bin/pip" install -q --disable-pip-version-check pyautogui==0.9.54 pillow==13.0.0 ||
    log "no desktop comparison: could not make $venv (python3-venv and the package registry are needed)"
}
bench_tools() { need_bin; tools_venv; node_bench tools-bench.mjs "$@"; }
bench_mcp() { need_bin; need_pkg; node_bench mcp-bench.mjs "$@"; }
bench_mcp_listing() { need_pkg; node_bench mcp-listing.mjs "$@"; }
# A throw-away PostgreSQL cluster with the database's default durability
# (fsync on, synchronous_commit on), unless BENCH_DATABASE_URL names one.
with_postgres() {
  if [ -z "${BENCH_DATABASE_URL:-}" ]; then
    source pkg-scripts/postgres.sh
    pg_start
    export BENCH_DATABASE_URL="$SENTIENCE_TEST_DATABASE_URL"
  fi
}
bench_server() { need_bin; with_postgres; target/release/sentience bench-server "$@"; }
bench_pg_driver() {
  with_postgres
  (cd bench/pg-driver-probe && CARGO_TARGET_DIR="$ROOT/target/pg-driver-probe" cargo build -q --release)
  "$ROOT/target/pg-driver-probe/release/pg-driver-probe" "$BENCH_DATABASE_URL" "$@"
}
bench_step_cost() { exec cargo run -q --release -p sentience-agent --example step_cost -- "$@"; }
bench_resize() { exec cargo run -q --release -p sentience-tool-server --example resize_bench -- "$@"; }
bench_engine_time() { exec cargo run -q --release -p sentience-snapshot-core --example engine_time -- "$@"; }
bench_websys_probe() { exec bash bench/websys-probe.sh "$@"; }
bench_walker_variants() { node_bench walker-variants.mjs "$@"; }
bench_walker_ablation() { node_bench walker-ablation.mjs "$@"; }
bench_walker_profile() { node_bench walker-profile.mjs "$@"; }
bench_sdk() {
  [ -x clients/python/.venv/bin/python ] && [ -f clients/playwright/dist/index.js ] && ls dist/sentience_sdk-*.whl >/dev/null 2>&1 || { log "build the SDK packages first: pkg-scripts/build.sh"; exit 1; }
  clients/python/.venv/bin/pip install -q --disable-pip-version-check --force-reinstall --no-deps dist/sentience_sdk-*.whl
  node_bench sdk-snapshot.mjs "$@"
}
bench_sdk_browser_use() {
  [ -x clients/python/.venv/bin/python ] && ls dist/sentience_sdk-*.whl >/dev/null 2>&1 || { log "build the SDK packages first: pkg-scripts/build.sh"; exit 1; }
  clients/python/.venv/bin/pip install -q --disable-pip-version-check --force-reinstall --no-deps dist/sentience_sdk-*.whl
  exec clients/python/.venv/bin/python clients/python/bench/browser_use_bench.py "$@"
}
bench_plain_real_pages() { node_bench plain-real-pages.mjs "$@"; }

if [ $# -eq 0 ] || [ "$1" = --list ] || [ "$1" = -h ] || [ "$1" = --help ]; then
  list
  exit 0
fi
name=$1
case "$name" in
  --*) name=snapshot ;; # the older form: bench.sh --smoke, bench.sh --sizes=…
  *) shift ;;
esac
runner="bench_${name//-/_}"
if ! declare -F "$runner" >/dev/null; then
  log "no benchmark named '$name'"
  list >&2
  exit 2
fi
"$runner" "$@"
