//! Platform-free tools over a snapshot (the model of `sentience_snapshot_core::contract`)
//! for agents: a query language (`role=button text~'sign in'`, see
//! [`query`]) and a compact, token-budgeted text format for LLM prompts (see
//! [`format`] and the token estimate in [`tokens`]). The extension loads it
//! through its own small wasm (crates/query-wasm); the agent server and the
//! CLI link it natively.

pub mod enough;
pub mod format;
pub mod model;
pub mod query;
pub mod tokens;

pub use enough::{format_enough, near_viewport, worth_listing, Enough};
pub use format::{format, format_elements, Formatted, DEFAULT_MAX_TOKENS};
pub use model::{
    listing_order, rank_order, BBox, Checked, Element, ElementState, Entry, Listed, Role,
    SelectOption, Snapshot, Viewport, VisualCues,
};
pub use query::{known_fields, Query, QueryError};
pub use tokens::estimate_tokens;
