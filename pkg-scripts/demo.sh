#!/usr/bin/env bash
# The main job: set up, build, print the snapshot of the bundled demo store's
# home page (the 8 most important elements), then run an agent on the demo
# store end to end in careful mode: Chromium + the extension's service worker
# + the agent server (built-in System 2 scorer unless LLM_API_KEY is set).
# It asks on the terminal before paying; with no terminal it refuses.
#   pkg-scripts/demo.sh                   the demo
#   pkg-scripts/demo.sh --task "…" [--url URL] [--mode autonomous] [--yes]
source "$(dirname "$0")/env.sh"
bash "$ROOT/pkg-scripts/setup.sh"
bash "$ROOT/pkg-scripts/build.sh"
bin="$ROOT/target/release/sentience"
if [ $# -gt 0 ]; then
  exec "$bin" run "$@"
fi
log "sentience snapshot --limit 8 (the demo store's home page)"
"$bin" snapshot --limit 8
log "sentience run (careful mode): the agent goes to checkout and pays, asking you first"
exec "$bin" run --mode careful --task 'Go to checkout and pay with card "4242 4242 4242 4242"'
