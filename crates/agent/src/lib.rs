//! Decision engines and the run state machine of the agent server, free of
//! any HTTP server code: the System 2 scorer (docs/contracts/system2.md §7), the built-in
//! planner over snapshots, the LLM policy, the careful-mode security gate and
//! reflections (docs/contracts/run-api.md §13).

pub mod intent;
pub mod llm;
pub mod page;
pub mod planner;
pub mod policy;
pub mod reflect;
pub mod run;
pub mod sample;
pub mod security;
pub mod system2;
pub mod task;
pub mod text;
pub mod time;
pub mod types;

pub use page::{ElementId, Page, RawJson, Snapshot};
pub use planner::ScorerPolicy;
pub use planner::{Planner, Session, Situation};
pub use policy::{Decision, Policy, PolicyContext, PolicyError, PolicyInfo};
pub use run::{Run, RunError};
pub use types::*;
