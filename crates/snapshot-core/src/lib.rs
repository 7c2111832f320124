//! Platform-free snapshot engine for the snapshot contract
//! (docs/contracts/snapshot.md).
//!
//! Input: a [`raw::RawPage`] (the facts the in-page walker collected).
//! Output: the snapshot model ([`contract::Snapshot`]) as JSON. Nothing here
//! touches a browser API, so every rule is tested natively (see
//! [`test_dom`]).

// The model, what goes in and out.
pub mod contract;
pub mod engine;
pub mod observed;
pub mod options;
pub mod raw;

// The rules.
pub mod color;
pub mod cues;
pub mod diff;
pub mod frame_report;
pub mod frames;
pub mod importance;
pub mod occlusion;
pub mod roles;
pub mod select;
pub mod state;
pub mod text;
#[cfg(test)]
mod walker_mirrors;
#[cfg(test)]
mod wire_js;

// Machinery: the hand-written JSON (for the WebAssembly size budget), and
// the native test DOM the rules are tested on.
pub mod json;
pub mod test_dom;

// The path engine.rs names the JSON writer by.
use json::writer as json_out;

pub use contract::{
    BBox, Checked, Element, ElementState, FrameCoverage, IncludedFrame, Role, SelectOption,
    SkippedFrame, Snapshot, SnapshotError, Viewport, VisualCues,
};
pub use engine::{
    attach_screenshot, error_json, snapshot, snapshot_from_wire, snapshot_json,
    snapshot_json_tracked, snapshot_tracked, Tracking, WireInput,
};
pub use json::writer::snapshot_to_json;
pub use observed::{DomFacts, Observed};
pub use options::SnapshotOptions;
pub use raw::{RawNode, RawPage};

pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
