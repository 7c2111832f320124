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

use snapshot_core::diff::History;
use snapshot_core::Tracking;
use std::cell::RefCell;

thread_local! {
    /// The fingerprints of the page's last few snapshots, for diffs
    /// (bounded: see `snapshot_core::diff`).
    static HISTORY: RefCell<History> = const { RefCell::new(History::new()) };
}

/// Computes the snapshot. Always returns JSON text: the contract's success
/// object, or `{"status":"error","error":…}` for bad options or bad input.
/// `page_key` numbers the page whose history to diff against and record in
/// (the service worker serves several; a content script passes 0); the bridge numbers the page's
/// snapshots (`snapshot_id`, `previous_id`: its last successful one, 0 for
/// none) and says how its wait for stability went (`waited_ms` < 0: none).
#[allow(clippy::too_many_arguments)]
#[wasm_bindgen]
pub fn snapshot(
    meta: &[f64],
    nums: &[f64],
    strs: &str,
    options: &str,
    engine_path: &str,
    page_key: u32,
    snapshot_id: u32,
    previous_id: u32,
    waited_ms: i32,
    settled: bool,
) -> String {
    let tracking = Tracking::new(snapshot_id, previous_id, waited_ms, settled);
    HISTORY.with(|h| match h.try_borrow_mut() {
        Ok(mut history) => snapshot_core::snapshot_json_tracked(
            meta,
            nums,
            strs,
            options,
            engine_path,
            tracking,
            history.for_page(page_key),
        ),
        Err(_) => snapshot_core::engine::error_json("snapshot engine busy"),
    })
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
