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
use sentience_snapshot_core::options::ScreenshotSpec;
use sentience_snapshot_core::{
    attach_screenshot, error_json, snapshot_to_json, Snapshot, Tracking, WireInput,
};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}

/// Installs a panic hook, so a panic that slips through (the engine answers
/// errors as values: none should) names its source line in the console
/// instead of an opaque `unreachable` trap. Not `console_error_panic_hook`:
/// formatting every panic's message cost the engine's WebAssembly 2.9 KB
/// (the size budget, pkg-scripts/build.sh); the source line is what finding
/// the bug needs, and a plain-text message is kept too.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let mut message = String::from("sentience engine panicked");
        if let Some(text) = info.payload().downcast_ref::<&str>() {
            message.push_str(": ");
            message.push_str(text);
        }
        if let Some(at) = info.location() {
            message.push_str(" at ");
            message.push_str(at.file());
            message.push(':');
            message.push_str(&at.line().to_string());
        }
        console_error(&message);
    }));
}

#[wasm_bindgen]
extern "C" {
    /// A walk in the wire form of `sentience_snapshot_core::raw`: `{meta, nums, strs}`
    /// (what extension/content/walker.js `collect` returns, or what
    /// frames.js gathered: the top walk with its frames' walks), typed in
    /// the generated .d.ts as walker.js declares it.
    #[wasm_bindgen(typescript_type = "SentienceWalk")]
    pub type Walk;
    #[wasm_bindgen(method, getter)]
    fn meta(this: &Walk) -> Vec<f64>;
    #[wasm_bindgen(method, getter)]
    fn nums(this: &Walk) -> Vec<f64>;
    #[wasm_bindgen(method, getter)]
    fn strs(this: &Walk) -> String;
}

/// One page's engine (one per scope of a document; see
/// extension/content/snapshot.js): the path it runs on, the page's diff
/// history (the fingerprints of its last few snapshots, bounded: see
/// `sentience_snapshot_core::diff`), and the snapshot waiting for its
/// screenshot, when the options asked for one.
#[wasm_bindgen]
pub struct Engine {
    engine_path: String,
    history: History,
    awaiting_screenshot: Option<(Snapshot, ScreenshotSpec)>,
    ok: bool,
}

#[wasm_bindgen]
impl Engine {
    /// `engine_path`: `"content_script"` or `"service_worker"`.
    #[wasm_bindgen(constructor)]
    pub fn new(engine_path: &str) -> Engine {
        Engine {
            engine_path: engine_path.to_string(),
            history: History::new(),
            awaiting_screenshot: None,
            ok: false,
        }
    }

    /// Computes the snapshot of `walk` and writes the whole answer as JSON
    /// text: the contract's success object (with `frames`, the bridge's
    /// iframe coverage report given as JSON text, `""` for none), or
    /// `{"status":"error","error":…}` for bad options or bad input; `ok`
    /// says which. `tracking` is laid out as the wire's `T_*` columns
    /// (extension/content/wire.js): the bridge numbers the page's snapshots
    /// (shared by its scopes and both engine paths, so it keeps the count)
    /// and says how its wait for stability went. When the options ask for
    /// a screenshot, the answer is the one without it and the snapshot is
    /// kept for [`Engine::attach_screenshot`].
    pub fn snapshot(
        &mut self,
        walk: &Walk,
        options: &str,
        tracking: &[f64],
        frames: &str,
    ) -> String {
        self.awaiting_screenshot = None;
        let input = WireInput {
            meta: &walk.meta(),
            nums: &walk.nums(),
            strs: &walk.strs(),
            options,
            frames,
        };
        let result = sentience_snapshot_core::snapshot_from_wire(
            input,
            &self.engine_path,
            Tracking::from_wire(tracking),
            &mut self.history,
        );
        self.ok = result.is_ok();
        match result {
            Ok((snap, opts)) => {
                let json = snapshot_to_json(&snap);
                self.awaiting_screenshot = opts.screenshot_spec().map(|spec| (snap, spec));
                json
            }
            Err(e) => error_json(&e),
        }
    }

    /// Whether the last `snapshot` succeeded.
    #[wasm_bindgen(getter)]
    pub fn ok(&self) -> bool {
        self.ok
    }

    /// The whole answer of the last `snapshot`, with the screenshot the
    /// service worker captured for it (a data URL); an error answer when
    /// no snapshot waits for one.
    pub fn attach_screenshot(&mut self, data_url: &str) -> String {
        match self.awaiting_screenshot.take() {
            Some((mut snap, spec)) => {
                attach_screenshot(&mut snap, &spec, data_url);
                snapshot_to_json(&snap)
            }
            None => error_json("no snapshot is waiting for a screenshot"),
        }
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
