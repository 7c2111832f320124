# Shared settings for the pkg-scripts (sourced, not run).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ROOT
export PATH="$HOME/.cargo/bin:$PATH"
# wasm builds get their own target dir so host builds (rustup's rustc) and
# wasm builds (possibly Debian's rustc) never invalidate each other.
export WASM_TARGET_DIR="$ROOT/target-wasm"
export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
# The wasm-bindgen CLI must be exactly the crate's version in Cargo.lock.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock"
}
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
