//! The wasm-bindgen binding of the snapshot core: the only Rust the extension
//! loads. It holds no logic of its own: an [`Engine`] handle per page hands
//! the walker's columnar raw page (see `sentience_snapshot_core::raw`; child frames'
//! walks ride along and are merged by `sentience_snapshot_core::frames`) to the core
//! and returns the contract JSON as one string (one `JSON.parse` on the JS
//! side beats building thousands of JS objects through the boundary).
//!
//! The same module runs in two places: the isolated content-script world (the
//! fast path) and the service worker (the path that survives a page's strict
//! Content-Security-Policy). The handle's `engine_path` says which, and ends
//! up in `meta.engine_path` of the result.

use sentience_snapshot_core::diff::History;
use sentience_snapshot_core::Tracking;
use wasm_bindgen::prelude::*;

/// Installs the panic hook so a panic that slips through shows its message in
/// the console instead of an opaque `unreachable` trap.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

#[wasm_bindgen]
extern "C" {
    /// A walk in the wire form of `sentience_snapshot_core::raw`: `{meta, nums, strs}`
    /// (what extension/content/walker.js `collect` returns, or what
    /// frames.js gathered: the top walk with its frames' walks).
    pub type Walk;
    #[wasm_bindgen(method, getter)]
    fn meta(this: &Walk) -> Vec<f64>;
    #[wasm_bindgen(method, getter)]
    fn nums(this: &Walk) -> Vec<f64>;
    #[wasm_bindgen(method, getter)]
    fn strs(this: &Walk) -> String;
}

/// One page's engine (one per scope of a document; see
/// extension/content/bridge.js): the path it runs on and the page's diff
/// history (the fingerprints of its last few snapshots, bounded: see
/// `sentience_snapshot_core::diff`).
#[wasm_bindgen]
pub struct Engine {
    engine_path: String,
    history: History,
}

#[wasm_bindgen]
impl Engine {
    /// `engine_path`: `"content_script"` or `"service_worker"`.
    #[wasm_bindgen(constructor)]
    pub fn new(engine_path: &str) -> Engine {
        Engine {
            engine_path: engine_path.to_string(),
            history: History::new(),
        }
    }

    /// Computes the snapshot of `walk`. Always returns JSON text: the
    /// contract's success object, or `{"status":"error","error":…}` for bad
    /// options or bad input. `tracking` is laid out as the wire's `T_*`
    /// columns (extension/content/wire.js): the bridge numbers the page's
    /// snapshots (shared by its scopes and both engine paths, so it keeps
    /// the count) and says how its wait for stability went.
    pub fn snapshot(&mut self, walk: &Walk, options: &str, tracking: &[f64]) -> String {
        sentience_snapshot_core::snapshot_json_tracked(
            &walk.meta(),
            &walk.nums(),
            &walk.strs(),
            options,
            &self.engine_path,
            Tracking::from_wire(tracking),
            &mut self.history,
        )
    }
}

/// Validates the page's options before any work is done: `""` when they are
/// fine, else the error message (the same text `Engine.snapshot` would give).
/// A function, not a method: it needs no page's state (and a method costs
/// more WebAssembly).
#[wasm_bindgen]
pub fn check_options(options: &str) -> String {
    match sentience_snapshot_core::SnapshotOptions::parse(options) {
        Ok(_) => String::new(),
        Err(e) => e,
    }
}

#[wasm_bindgen]
pub fn engine_version() -> String {
    sentience_snapshot_core::ENGINE_VERSION.to_string()
}
