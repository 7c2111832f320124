//! Platform-free snapshot engine for the Snapshot API contract v1 (specs/001).
//!
//! Input: a [`raw::RawPage`] (the facts the in-page walker collected).
//! Output: the contract's [`contract::Snapshot`] JSON. Nothing here touches a
//! browser API, so every rule is tested natively (see [`test_dom`]).

pub mod color;
pub mod contract;
pub mod cues;
pub mod diff;
pub mod engine;
pub mod float_text;
pub mod frames;
pub mod importance;
mod json_in;
pub mod json_out;
pub mod occlusion;
pub mod options;
mod options_parse;
pub mod raw;
pub mod roles;
pub mod select;
pub mod state;
pub mod test_dom;
pub mod text;
#[cfg(test)]
mod wire_js;

pub use contract::{Checked, Element, ElementState, Role, SelectOption, Snapshot, SnapshotError};
pub use engine::{snapshot, snapshot_json, snapshot_json_tracked, snapshot_tracked, Tracking};
pub use options::SnapshotOptions;
pub use raw::{RawNode, RawPage};

pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
