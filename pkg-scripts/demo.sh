#!/usr/bin/env bash
# The main job: set up, build, and print the snapshot of the bundled demo
# page (or of the URL given as argument) taken in headless Chromium with the
# extension loaded.   pkg-scripts/demo.sh [URL] [--limit N] [--headed]
source "$(dirname "$0")/env.sh"
bash "$ROOT/pkg-scripts/setup.sh"
bash "$ROOT/pkg-scripts/build.sh"
exec "$ROOT/target/release/sentience" snapshot "$@"
