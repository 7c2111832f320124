//! `visual_cues.is_clickable` and `visual_cues.is_primary` (docs/contracts/snapshot.md §6.6).
//!
//! # The primary rule
//! docs/contracts/snapshot.md §6.6 says only "visually prominent primary action". We call a
//! candidate primary when it is a Button or Link, not disabled, and either:
//!
//! **(A) it stands out by colour.** Its *own* background (alpha ≥ 0.5) is
//! filled and saturated (HSL saturation ≥ 0.35, lightness 0.2–0.8, so not
//! white, black, gray or pastel) and differs from what is behind it (its
//! parent's effective background) by CIE76 ΔE > 20. If more than 3 such
//! buttons share one palette colour name, the colour is the page's accent,
//! not a signal: of those only the largest (by area; ties: first in
//! document order) is primary.
//!
//! **(B) it is the default button of the main form.** The main form is the
//! `<form>` owning the most text controls (Textbox / Searchbox candidates;
//! ties: the first form), and it must own at least one. Its default button
//! is the first submit button in tree order (HTML §4.10.21.2, implicit
//! submission): `<button>` without a `type` (or an invalid one, which is
//! the Submit state) or `type=submit`, or `<input type=submit|image>`.

use crate::color::{delta_e, over_white, ColorCache, PALETTE};
use crate::contract::Role;
use crate::raw::{Flags, RawNode, RawPage, Rgba};
use crate::select::Candidate;

/// `is_clickable` (docs/contracts/snapshot.md §6.6): "has pointer cursor or actionable role"; an
/// `onclick` handler is a click target too.
/// Mirrored by extension/content/walker.js (`roleClickable`): it does not
/// read the cursor of a link or button without a role attribute, which is
/// clickable by its role here; change both together (walker_mirrors.rs checks it).
pub fn is_clickable(node: &RawNode, role: Role) -> bool {
    node.has(Flags::CURSOR_POINTER) || node.has(Flags::ONCLICK) || role.is_actionable()
}

/// Rule (A) thresholds, see the module doc.
const MIN_OWN_ALPHA: u8 = 128;
const MIN_SATURATION: f64 = 0.35;
const LIGHTNESS: (f64, f64) = (0.2, 0.8);
const MIN_CONTRAST_DE: f64 = 20.0;
const MAX_SAME_COLOUR: u32 = 3;

/// `is_primary` for each candidate (same order as `candidates`).
pub fn primary_flags(page: &RawPage, candidates: &[Candidate]) -> Vec<bool> {
    let mut primary = vec![false; candidates.len()];
    by_colour(page, candidates, &mut primary);
    by_main_form(page, candidates, &mut primary);
    primary
}

fn eligible<'a>(page: &'a RawPage, c: &Candidate) -> Option<&'a RawNode> {
    let node = page.nodes.get(c.index as usize)?;
    (matches!(c.role, Role::Button | Role::Link) && !node.has(Flags::DISABLED)).then_some(node)
}

/// Rule (A).
fn by_colour(page: &RawPage, candidates: &[Candidate], primary: &mut [bool]) {
    // (candidate position, palette index, area) of each filled button.
    let mut filled: Vec<(usize, usize, f64)> = Vec::new();
    let mut colors = ColorCache::new();
    for (k, c) in candidates.iter().enumerate() {
        let Some(node) = eligible(page, c) else {
            continue;
        };
        if let Some(palette) = filled_colour(page, node, &mut colors) {
            filled.push((k, palette, node.rect.width * node.rect.height));
        }
    }
    let mut count = [0u32; PALETTE.len()];
    for &(_, p, _) in &filled {
        if let Some(n) = count.get_mut(p) {
            *n += 1;
        }
    }
    // For over-used colours: the largest of them (first wins ties).
    let mut largest: [Option<(usize, f64)>; PALETTE.len()] = [None; PALETTE.len()];
    for &(k, p, area) in &filled {
        if let Some(slot) = largest.get_mut(p) {
            if slot.is_none_or(|(_, a)| area > a) {
                *slot = Some((k, area));
            }
        }
    }
    for &(k, p, _) in &filled {
        let n = count.get(p).copied().unwrap_or(0);
        let is_largest = largest
            .get(p)
            .copied()
            .flatten()
            .is_some_and(|(w, _)| w == k);
        if n <= MAX_SAME_COLOUR || is_largest {
            if let Some(slot) = primary.get_mut(k) {
                *slot = true;
            }
        }
    }
}

/// The palette index of a node's own background when it is a filled,
/// saturated colour that stands out from its surroundings.
fn filled_colour(page: &RawPage, node: &RawNode, colors: &mut ColorCache) -> Option<usize> {
    let bg = node.background.filter(|c| c.a >= MIN_OWN_ALPHA)?;
    let own = over_white(bg);
    let (s, l) = saturation_lightness(own);
    if s < MIN_SATURATION || l < LIGHTNESS.0 || l > LIGHTNESS.1 {
        return None;
    }
    let behind = node
        .parent
        .and_then(|p| page.nodes.get(p as usize))
        .and_then(|p| p.effective_background)
        .unwrap_or(Rgba::new(255, 255, 255, 255));
    let contrast = delta_e(colors.lab(own), colors.lab(over_white(behind)));
    (contrast > MIN_CONTRAST_DE).then(|| colors.nearest_index(own))
}

/// HSL saturation and lightness (CSS Color 4 §7, `rgbToHsl`), both 0..=1.
pub fn saturation_lightness(rgb: [u8; 3]) -> (f64, f64) {
    let [r, g, b] = rgb.map(|v| v as f64 / 255.0);
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    let l = (max + min) / 2.0;
    let d = max - min;
    let s = if d == 0.0 || l <= 0.0 || l >= 1.0 {
        0.0
    } else {
        d / (1.0 - (2.0 * l - 1.0).abs())
    };
    (s, l)
}

/// HTML §4.10.6 / §4.10.5.1.18–19: the submit buttons of a form.
fn is_submit_button(node: &RawNode) -> bool {
    match node.tag.as_str() {
        // A missing or invalid `type` is the Submit Button state.
        "button" => !matches!(node.input_type.as_str(), "button" | "reset"),
        "input" => matches!(node.input_type.as_str(), "submit" | "image"),
        _ => false,
    }
}

/// Rule (B).
fn by_main_form(page: &RawPage, candidates: &[Candidate], primary: &mut [bool]) {
    let form_of = |c: &Candidate| page.nodes.get(c.index as usize).and_then(|n| n.form);
    let text_forms = candidates
        .iter()
        .filter(|c| matches!(c.role, Role::Textbox | Role::Searchbox))
        .filter_map(form_of);
    let Some(main) = main_form(text_forms, page.nodes.len()) else {
        return;
    };
    let default_button = candidates.iter().enumerate().find(|(_, c)| {
        c.role == Role::Button
            && form_of(c) == Some(main)
            && page
                .nodes
                .get(c.index as usize)
                .is_some_and(is_submit_button)
    });
    if let Some((k, c)) = default_button {
        let disabled = page
            .nodes
            .get(c.index as usize)
            .is_none_or(|n| n.has(Flags::DISABLED));
        if let (false, Some(slot)) = (disabled, primary.get_mut(k)) {
            *slot = true;
        }
    }
}

/// The form with the most text controls; on a tie the earlier (smaller)
/// one. A form is a node index, so counting takes an array (plus a list for
/// indices past the page, which only hand-built pages have), not a sort.
fn main_form(forms: impl Iterator<Item = u32>, nodes: usize) -> Option<u32> {
    let mut counts = vec![0usize; nodes];
    let mut outside: Vec<(u32, usize)> = Vec::new();
    for form in forms {
        if let Some(n) = counts.get_mut(form as usize) {
            *n += 1;
        } else if let Some(entry) = outside.iter_mut().find(|e| e.0 == form) {
            entry.1 += 1;
        } else {
            outside.push((form, 1));
        }
    }
    let in_page = counts.iter().enumerate().map(|(f, &n)| (f as u32, n));
    let mut best: Option<(u32, usize)> = None;
    for (form, n) in in_page.chain(outside) {
        if n > 0 && best.is_none_or(|(f, m)| n > m || (n == m && form < f)) {
            best = Some((form, n));
        }
    }
    best.map(|(form, _)| form)
}

#[cfg(test)]
mod tests;
