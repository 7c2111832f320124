#!/usr/bin/env bash
# web-sys vs JS-walker measurement: builds bench/websys-probe (a stand-alone
# crate, excluded from the workspace) for wasm32 and runs
# tests/bench/websys-vs-walker.mjs, which times, in the page's main world on
# generated pages, the same per-element DOM reads done
#   (a) from Rust through web-sys (walk_websys),
#   (b) in plain JS (an inline mirror of the probe),
#   (c) the plain-JS floor (getBoundingClientRect + getComputedStyle().display).
#
#   pkg-scripts/bench.sh websys-probe                 build the three variants + run (1k, 10k)
#   pkg-scripts/bench.sh websys-probe --no-build      run only
#   pkg-scripts/bench.sh websys-probe --mvp-only      build/run only the shipped-codegen variant
# Other arguments go to the bench, e.g. --sizes=1000,10000 --runs=9
#
# Three builds of the same probe source, to give web-sys its best chance:
#   pkg/           -C target-cpu=mvp, exactly as pkg-scripts/build.sh builds the
#                  extension (JS objects live in a JS-side heap array);
#   pkg-reftypes/  rustc's default wasm32 features (reference-types on: JS
#                  objects pass as externref);
#   pkg-intern/    mvp plus wasm-bindgen's string interning (feature
#                  `interning`): the property/attribute names are passed as
#                  cached JS strings instead of being decoded on every call.
source "$(dirname "$0")/../pkg-scripts/env.sh"
cd "$ROOT"
PROBE="$ROOT/bench/websys-probe"

build=1
variants=(mvp reftypes intern)
bench_args=()
for a in "$@"; do
  case "$a" in
    --no-build) build=0 ;;
    --mvp-only) variants=(mvp) ;;
    *) bench_args+=("$a") ;;
  esac
done

build_variant() {
  local variant=$1 out flags features=() target_dir
  case "$variant" in
    mvp) out="$PROBE/pkg"; flags="-C target-cpu=mvp" ;;
    reftypes) out="$PROBE/pkg-reftypes"; flags="" ;;
    intern) out="$PROBE/pkg-intern"; flags="-C target-cpu=mvp"; features=(--features interning) ;;
  esac
  # One target dir per codegen flag set (std is rebuilt per RUSTFLAGS);
  # the interning build shares mvp's std, cargo keeps both feature sets apart.
  if [ -z "$flags" ]; then target_dir="$PROBE/target/reftypes"; else target_dir="$PROBE/target/mvp"; fi
  log "building the web-sys probe ($variant)"
  if command -v rustup >/dev/null 2>&1 && rustup target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$'; then
    (cd "$PROBE" && RUSTFLAGS="${RUSTFLAGS:-} $flags" CARGO_TARGET_DIR="$target_dir" \
      cargo build -q --release --target wasm32-unknown-unknown "${features[@]}")
  else
    (cd "$PROBE" && RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 RUSTFLAGS="${RUSTFLAGS:-} $flags" CARGO_TARGET_DIR="$target_dir" \
      cargo build -q --release --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort "${features[@]}")
  fi
  rm -rf "$out" && mkdir -p "$out"
  wasm-bindgen --target web --no-typescript --out-dir "$out" "$target_dir/wasm32-unknown-unknown/release/websys_probe.wasm"
  # mvp and intern share a target dir: make sure the glue is the one asked for.
  if grep -q getCachedStringFromWasm0 "$out/websys_probe.js"; then [ "$variant" = intern ]; else [ "$variant" != intern ]; fi ||
    { log "$out: interning glue does not match the $variant variant"; exit 1; }
  log "$(realpath --relative-to="$ROOT" "$out")/websys_probe_bg.wasm: $(stat -c %s "$out/websys_probe_bg.wasm") bytes"
}

if [ "$build" = 1 ]; then
  for v in "${variants[@]}"; do build_variant "$v"; done
fi
[ -f "$PROBE/pkg/websys_probe_bg.wasm" ] || { log "bench/websys-probe/pkg is missing: run without --no-build"; exit 1; }
[ -f pkg/sentience_wasm_bg.wasm ] || { log "pkg/ is missing (the harness loads the extension): run pkg-scripts/build.sh wasm first"; exit 1; }
[ -d tests/node_modules/playwright-core ] || (cd tests && npm ci --no-audit --no-fund)
exec node tests/bench/websys-vs-walker.mjs "${bench_args[@]}"
