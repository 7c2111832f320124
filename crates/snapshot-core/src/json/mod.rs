//! The engine's JSON, written by hand for the WebAssembly size budget
//! (`pkg-scripts/build.sh`: the engine's `.wasm` must stay under 110,000
//! bytes). serde's generic serializer and deserializer, instantiated for
//! the snapshot model and the options, cost more than the rules they serve;
//! the host-side crates (query, agent, servers) use serde as usual.
//!
//! - [`writer`]: the snapshot model as JSON text, byte for byte what
//!   `serde_json::to_string` makes of it (tested against it).
//! - [`options`] over [`reader`]: `snapshot(options)`'s JSON parsed into a
//!   small value tree, then mapped field by field with our own messages;
//!   accepts and rejects exactly what serde's derives on `crate::options`
//!   would, with the same values (tested against them).
//! - [`float_text`]: `f64`'s `Display` text without `core::fmt`'s float
//!   formatting, for the engine's error messages.
//!
//! What each pays, measured on the engine's `.wasm` after wasm-opt
//! (107,470 bytes with both): `serde_json::to_string` instead of the writer
//! makes it 110,536 (+3,066, over the budget); `serde_json::from_str` with
//! the derives instead of the options reader, 139,495 (+32,025). To measure
//! again, swap the call in `writer::snapshot_to_json` or
//! `SnapshotOptions::parse` and run `pkg-scripts/build.sh wasm`.

pub mod float_text;
pub(crate) mod options;
pub(crate) mod reader;
pub mod writer;
