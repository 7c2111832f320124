#!/usr/bin/env bash
# The whole test suite, from a fresh Debian machine: setup, build, lint,
# native tests of every crate, then the end-to-end suites in headless
# Chromium with the built extension, and a smoke run of the benchmark.
source "$(dirname "$0")/env.sh"
cd "$ROOT"
bash pkg-scripts/setup.sh
bash pkg-scripts/build.sh

log "cargo fmt --check"
cargo fmt --all -- --check
log "cargo clippy -D warnings"
cargo clippy -q --workspace --all-targets -- -D warnings

log "native tests (cargo test --release --workspace: reuses the release build)"
cargo test -q --release --workspace

if [ -f tests/bench/snapshot-bench.mjs ]; then
  log "benchmark smoke run"
  bash pkg-scripts/bench.sh --smoke
fi

log "format tokens: estimate ≥ real BPE counts, task elements listed (~15 s)"
node tests/bench/format-tokens.mjs

log "end-to-end tests (headless Chromium + the extension)"
cd tests
node --test --test-concurrency=1 e2e/
