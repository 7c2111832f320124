//! `importance` (docs/contracts/snapshot.md §6.4): an integer ranking score.
//!
//! snapshot formula (docs/contracts/snapshot.md §6.4): role priority ("inputs:
//! 1000, buttons: 500, links: 100") + area score (capped at 200) + 200 for
//! primary actions − 500 off-screen − 800 occluded; "Range: -300 to ~1800".

use crate::contract::Role;

/// docs/contracts/snapshot.md §6.4 "Range: -300 to ~1800". Clamped so every score validates;
/// elements that hit a bound then fall back to reading order when sorted.
pub const MIN_IMPORTANCE: i32 = -300;
pub const MAX_IMPORTANCE: i32 = 1800;

/// Role priority. docs/contracts/snapshot.md §6.4 fixes inputs (1000), buttons (500) and links
/// (100). Ours where it is silent: comboboxes are inputs (1000);
/// checkboxes and radios (700) are inputs that rank below text fields, as
/// they are answered after them; images and generic clickables (50) rank
/// below links, being the least certain click targets.
pub fn role_priority(role: Role) -> i32 {
    match role {
        Role::Textbox | Role::Searchbox | Role::Combobox => 1000,
        Role::Checkbox | Role::Radio => 700,
        Role::Button => 500,
        Role::Link => 100,
        Role::Image | Role::Generic => 50,
    }
}

/// docs/contracts/snapshot.md §6.4 "Area score (larger elements score higher, capped at 200)":
/// one point per 100 px² of the visible (unclipped) area. The viewport is
/// left out on purpose: being off-screen is the −500 penalty's job, and
/// counting it twice would rank a half-scrolled field below a tiny one.
pub fn area_score(visible_area: f64) -> i32 {
    if visible_area.is_nan() || visible_area <= 0.0 {
        return 0;
    }
    (visible_area / 100.0).floor().min(200.0) as i32
}

/// visual prominence bonus (docs/contracts/snapshot.md §6.4).
pub const PRIMARY_BONUS: i32 = 200;
/// snapshot viewport / occlusion penalties (docs/contracts/snapshot.md §6.4).
pub const OFF_SCREEN_PENALTY: i32 = 500;
pub const OCCLUDED_PENALTY: i32 = 800;

/// What the score depends on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Factors {
    pub role: Role,
    pub visible_area: f64,
    pub is_primary: bool,
    pub in_viewport: bool,
    pub is_occluded: bool,
}

pub fn importance(f: Factors) -> i32 {
    let mut score = role_priority(f.role) + area_score(f.visible_area);
    if f.is_primary {
        score += PRIMARY_BONUS;
    }
    if !f.in_viewport {
        score -= OFF_SCREEN_PENALTY;
    }
    if f.is_occluded {
        score -= OCCLUDED_PENALTY;
    }
    score.clamp(MIN_IMPORTANCE, MAX_IMPORTANCE)
}

#[cfg(test)]
mod tests;
