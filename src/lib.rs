//! The wasm-bindgen binding of the snapshot core: the only Rust the extension
//! loads. It holds no logic of its own: it hands the walker's columnar raw
//! page (see `snapshot_core::raw`) to the core and returns the contract JSON
//! as one string (one `JSON.parse` on the JS side beats building thousands of
//! JS objects through the boundary).
//!
//! The same module runs in two places: the isolated content-script world (the
//! fast path) and the service worker (the path that survives a page's strict
//! Content-Security-Policy). `engine_path` says which, and ends up in
//! `meta.engine_path` of the result.

use wasm_bindgen::prelude::*;

/// Installs the panic hook so a panic that slips through shows its message in
/// the console instead of an opaque `unreachable` trap.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// Computes the snapshot. Always returns JSON text: the contract's success
/// object, or `{"status":"error","error":…}` for bad options or bad input.
#[wasm_bindgen]
pub fn snapshot(
    meta: &[f64],
    nums: &[f64],
    strs: &str,
    options: &str,
    engine_path: &str,
) -> String {
    snapshot_core::snapshot_json(meta, nums, strs, options, engine_path)
}

/// Validates the page's options before any work is done: `""` when they are
/// fine, else the error message (the same text `snapshot` would give).
#[wasm_bindgen]
pub fn check_options(options: &str) -> String {
    match snapshot_core::SnapshotOptions::parse(options) {
        Ok(_) => String::new(),
        Err(e) => e,
    }
}

#[wasm_bindgen]
pub fn engine_version() -> String {
    snapshot_core::ENGINE_VERSION.to_string()
}
