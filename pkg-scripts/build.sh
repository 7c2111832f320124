#!/usr/bin/env bash
# Builds the extension: cargo (wasm32) → wasm-bindgen → wasm-opt into pkg/,
# so the repo root loads unpacked in Chrome, plus dist/sentience-extension.zip,
# and the host `sentience` CLI.
#   pkg-scripts/build.sh          everything
#   pkg-scripts/build.sh wasm     only the extension
source "$(dirname "$0")/env.sh"
cd "$ROOT"

log "building the WebAssembly engine"
# MVP code generation: Debian's binaryen (wasm-opt 108) mangles the
# reference-types externref table that newer rustc/wasm-bindgen emit.
# Scoped to the wasm32 target so host builds (the CLI below) are untouched.
# Bulk memory (memcpy as one memory.copy), sign extension and saturating
# float-to-int conversions are added back: every Chrome this extension
# supports has them, and they made the engine 2.7 KB smaller and ~5% faster.
wasm_flags="-C target-cpu=mvp -C target-feature=+bulk-memory,+sign-ext,+nontrapping-fptoint"
# Panic messages carry source paths; without the machine-specific prefixes
# (the crates' registry folder, a from-source std) they are shorter, so the
# engine is smaller, and the build is the same on every machine.
for dir in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/ /usr/lib/rustlib/src/rust/; do
  [ -d "$dir" ] && wasm_flags="$wasm_flags --remap-path-prefix=$dir="
done
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:-} $wasm_flags"
# One cargo invocation per module: features are unified within an
# invocation, so building them apart keeps the engine's wasm exactly what it
# would be alone.
build_wasm() { # package
  if command -v rustup >/dev/null 2>&1 && rustup target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$'; then
    # A normal developer machine: rustup ships the wasm32 standard library.
    CARGO_TARGET_DIR="$WASM_TARGET_DIR" cargo build -q --lib --target wasm32-unknown-unknown --profile wasm-release -p "$1"
  else
    # These machines: Debian's rustc-web builds std for wasm32 from source.
    RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR="$WASM_TARGET_DIR" \
      cargo build -q --lib --target wasm32-unknown-unknown --profile wasm-release -p "$1" \
      -Zbuild-std=std,panic_abort
  fi
}
# wasm-bindgen (no-modules glue defining the global $2: the extension's
# globals all start with Sentience) + wasm-opt into pkg/.
bind_wasm() { # crate-file-stem global
  wasm-bindgen --target no-modules --no-modules-global "$2" --no-typescript --out-dir pkg \
    "$WASM_TARGET_DIR/wasm32-unknown-unknown/wasm-release/$1.wasm"
  wasm-opt -Oz --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
    --enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue \
    --strip-debug --strip-producers "pkg/$1_bg.wasm" -o "pkg/$1_bg.opt.wasm"
  mv "pkg/$1_bg.opt.wasm" "pkg/$1_bg.wasm"
  log "pkg/$1_bg.wasm: $(stat -c %s "pkg/$1_bg.wasm") bytes"
}
build_wasm sentience-wasm
# The query language and LLM format: a separate module (loaded on first use)
# so the snapshot engine's wasm does not grow.
build_wasm sentience-query-wasm
rm -rf pkg && mkdir -p pkg
bind_wasm sentience_wasm SentienceEngine
bind_wasm sentience_query SentienceQuery
engine_size=$(stat -c %s pkg/sentience_wasm_bg.wasm)
if [ "$engine_size" -ge 110000 ]; then
  log "pkg/sentience_wasm_bg.wasm is $engine_size bytes: over the 110,000-byte budget"
  exit 1
fi

log "packaging dist/sentience-extension.zip"
mkdir -p dist
python3 - <<'PY'
import os, zipfile
root = os.environ["ROOT"]
out = os.path.join(root, "dist", "sentience-extension.zip")
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    z.write(os.path.join(root, "manifest.json"), "manifest.json")
    for top in ("extension", "pkg"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                p = os.path.join(d, f)
                z.write(p, os.path.relpath(p, root))
PY

# The web-app package of the tool server's client logic (clients/hands/,
# docs/hands.md): an ES module, so `--target web`; not part of the extension.
log "building clients/hands (WebAssembly)"
build_wasm sentience-hands-wasm
# (The crate's lib is sentience_hands_wasm, apart from crates/hands'
# sentience_hands; the package's files keep the shorter name.)
wasm-bindgen --target web --no-typescript --out-dir clients/hands/pkg --out-name sentience_hands \
  "$WASM_TARGET_DIR/wasm32-unknown-unknown/wasm-release/sentience_hands_wasm.wasm"
wasm-opt -Oz --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
  --enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue --strip-debug --strip-producers \
  clients/hands/pkg/sentience_hands_bg.wasm -o clients/hands/pkg/sentience_hands_bg.opt.wasm
mv clients/hands/pkg/sentience_hands_bg.opt.wasm clients/hands/pkg/sentience_hands_bg.wasm
log "clients/hands/pkg/sentience_hands_bg.wasm: $(stat -c %s clients/hands/pkg/sentience_hands_bg.wasm) bytes"

if [ "${1:-all}" != wasm ]; then
  log "building the sentience CLI"
  cargo build -q --release -p sentience-cli
  # The SDK packages carry the extension and the CLI built above.
  bash pkg-scripts/build-sdk.sh
fi
log "build done: load $ROOT unpacked in chrome://extensions"
