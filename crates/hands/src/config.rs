//! Every threshold and timing of the client logic, with the value
//! docs/contracts/tools.md §17 gives it (docs/hands.md cites the section of each), gathered
//! in one struct so a caller can override any of them.

use serde::{Deserialize, Serialize};

/// docs/contracts/tools.md §17.1: keep the last 10 actions.
pub const LOOP_HISTORY: usize = 10;
/// docs/contracts/tools.md §17.1: `last3` — three actions of one type.
pub const LOOP_REPEAT: usize = 3;
/// docs/contracts/tools.md §17.1: `xRange < 50 && yRange < 50`.
pub const LOOP_CLICK_RADIUS_PX: f64 = 50.0;
/// docs/contracts/tools.md §17.3: `distance < 30` → the providers agree.
pub const AGREEMENT_PX: f64 = 30.0;
/// docs/contracts/tools.md §17.6: `maxRetries = 3`.
pub const MAX_ATTEMPTS: u32 = 3;
/// docs/contracts/tools.md §17.6: `sleep(500 * attempt)`.
pub const BACKOFF_STEP_MS: u64 = 500;
/// docs/contracts/tools.md §17.6: `catch (error) { … sleep(1000) }` — a transport error.
pub const TRANSPORT_ERROR_WAIT_MS: u64 = 1000;
/// Beyond the spec: when the point validated in healing step 2 is not on a
/// clickable element, the nearest clickable element of the page snapshot
/// whose box is at most this far from the point is taken instead.
pub const HEAL_RADIUS_PX: f64 = 24.0;
/// Beyond the spec: how long a click may take to show its effect on the
/// page before it counts as "changed nothing", and how often to look.
pub const CHANGE_SETTLE_MS: u64 = 1000;
pub const CHANGE_POLL_MS: u64 = 100;
/// `lux_sdk_reference` (docs/contracts/tools.md §4): the Lux model's image size.
pub const LUX_WIDTH: f64 = 1260.0;
pub const LUX_HEIGHT: f64 = 700.0;

/// The knobs of every rule; `Default` is the spec's values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct HandsConfig {
    pub loop_history: usize,
    pub loop_repeat: usize,
    pub loop_click_radius_px: f64,
    pub agreement_px: f64,
    pub max_attempts: u32,
    pub backoff_step_ms: u64,
    pub transport_error_wait_ms: u64,
    pub heal_radius_px: f64,
    /// Beyond the spec: a click the tool server reports as done but after
    /// which the page is unchanged counts as failed (needs the tool server's
    /// `GET /browser/snapshot`; browser scope only).
    pub click_must_change_page: bool,
    pub change_settle_ms: u64,
    pub change_poll_ms: u64,
}

impl Default for HandsConfig {
    fn default() -> Self {
        HandsConfig {
            loop_history: LOOP_HISTORY,
            loop_repeat: LOOP_REPEAT,
            loop_click_radius_px: LOOP_CLICK_RADIUS_PX,
            agreement_px: AGREEMENT_PX,
            max_attempts: MAX_ATTEMPTS,
            backoff_step_ms: BACKOFF_STEP_MS,
            transport_error_wait_ms: TRANSPORT_ERROR_WAIT_MS,
            heal_radius_px: HEAL_RADIUS_PX,
            click_must_change_page: true,
            change_settle_ms: CHANGE_SETTLE_MS,
            change_poll_ms: CHANGE_POLL_MS,
        }
    }
}
