#!/usr/bin/env bash
# The whole test suite, from a fresh Debian machine: setup, build, lint
# (Rust, and the JavaScript: tsc + eslint), native tests of every crate,
# JavaScript unit tests in Node, a smoke run of the snapshot benchmark, then
# the end-to-end suites in headless Chromium with the built extension, and
# the SDK packages' suites (pkg-scripts/test-sdk.sh).
source "$(dirname "$0")/env.sh"
cd "$ROOT"
bash pkg-scripts/setup.sh
bash pkg-scripts/build.sh

log "cargo fmt --check"
cargo fmt --all -- --check
log "cargo clippy -D warnings"
cargo clippy -q --workspace --all-targets -- -D warnings

log "JavaScript: tsc --noEmit (@ts-check files) and eslint"
bash pkg-scripts/check-js.sh

log "PostgreSQL: a throw-away cluster on loopback (pkg-scripts/postgres.sh) for the store and replica tests"
source pkg-scripts/postgres.sh
# Durability is not under test here (a killed replica is; the cluster is
# never killed), so the cluster skips its fsyncs.
pg_start -c fsync=off -c synchronous_commit=off -c full_page_writes=off

log "native tests (cargo test --release --workspace: reuses the release build; crates/cli/tests/replicas.rs runs three servers on the cluster)"
CI="${CI:-true}" cargo test -q --release --workspace --no-fail-fast

log "agent server suites again, on PostgreSQL (SENTIENCE_TEST_STORE=postgres)"
SENTIENCE_TEST_STORE=postgres cargo test -q --release --no-fail-fast -p sentience-server
pg_stop

log "JavaScript unit tests (Node, no browser: tests/unit/)"
(cd tests && node --test unit/)

log "benchmark smoke run"
bash pkg-scripts/bench.sh snapshot --smoke

log "format tokens: estimate ≥ real BPE counts, task elements listed (~15 s)"
node tests/bench/format-tokens.mjs

log "browse selectors: each one the policies could send is exactly its element in Chromium, on the 27 real saved pages (~1 min)"
bash pkg-scripts/bench.sh browse-selectors

log "end-to-end tests (headless Chromium + the extension)"
(cd tests && node --test --test-concurrency=1 e2e/)

# ---- SDK packages (clients/python, clients/playwright): pytest, node --test,
# fresh installs of the wheel and of `npm pack` running their quick starts (~3 min)
bash pkg-scripts/test-sdk.sh
