//! Reflections (`reflections[]` of docs/contracts/run-api.md §13: efficiency, issues, suggestions,
//! shouldAdjust), computed from the run history every 5 steps and on demand
//! when something goes wrong. A loop is the same action on the same element
//! (or a click within 50 px of an earlier one) 3 times with no page change.

use crate::types::{HistoryEntry, Reflection};

/// run API example (docs/contracts/run-api.md §13): a reflection at step 5 analysing 5 steps.
pub const EVERY: u32 = 5;
const LOOP_WINDOW: usize = 10;
const LOOP_COUNT: usize = 3;
const NEAR_PX: f64 = 50.0;

/// Is this an action that can loop (acts on something)?
fn acts(e: &HistoryEntry) -> bool {
    matches!(e.action.as_str(), "click" | "type" | "press" | "scroll")
}

fn same_target(a: &HistoryEntry, b: &HistoryEntry) -> bool {
    if a.action != b.action {
        return false;
    }
    if let (Some(x), Some(y)) = (a.element_key(), b.element_key()) {
        if x == y {
            return true;
        }
    }
    if a.action == "click" {
        if let (Some(x), Some(y)) = (a.bbox, b.bbox) {
            let ((ax, ay), (bx, by)) = (x.center(), y.center());
            return ((ax - bx).powi(2) + (ay - by).powi(2)).sqrt() <= NEAR_PX;
        }
    }
    a.action == "scroll" && a.param_str("direction") == b.param_str("direction")
}

/// Loops in the recent history: (representative entry, repetitions).
pub fn find_loops(history: &[HistoryEntry]) -> Vec<(&HistoryEntry, usize)> {
    let start = history.len().saturating_sub(LOOP_WINDOW);
    let recent: Vec<&HistoryEntry> = history[start..]
        .iter()
        .filter(|e| acts(e) && e.no_page_change())
        .collect();
    let mut loops: Vec<(&HistoryEntry, usize)> = Vec::new();
    for e in &recent {
        if loops.iter().any(|(l, _)| same_target(l, e)) {
            continue;
        }
        let n = recent.iter().filter(|o| same_target(e, o)).count();
        if n >= LOOP_COUNT {
            loops.push((e, n));
        }
    }
    loops
}

/// Should a reflection be made now? Every `EVERY` steps, and whenever the
/// last action failed or a loop shows up.
pub fn due(history: &[HistoryEntry], step: u32) -> bool {
    let periodic = step > 0 && step % EVERY == 0;
    let failed = history.last().is_some_and(|e| e.success == Some(false));
    periodic || failed || !find_loops(history).is_empty()
}

pub fn reflect(history: &[HistoryEntry], step: u32, now: u64) -> Reflection {
    let window = history.len().min(EVERY as usize);
    let recent = &history[history.len() - window..];
    let mut issues = Vec::new();
    let mut suggestions = Vec::new();
    let mut avoid = Vec::new();
    let loops = find_loops(history);
    for (e, n) in &loops {
        let what = e
            .element_text
            .clone()
            .or_else(|| e.element_id().map(|id| format!("element {id}")))
            .unwrap_or_else(|| "the page".into());
        issues.push(format!(
            "Loop: {} on '{}' repeated {} times with no page change",
            e.action, what, n
        ));
        suggestions.push(format!(
            "Stop using '{what}': scroll to reveal other content, try another element, or go back"
        ));
        if let Some(id) = e.element_id() {
            avoid.push(id);
        }
    }
    let failures = recent.iter().filter(|e| e.success == Some(false)).count();
    if failures >= 2 || (failures == 1 && recent.last().is_some_and(|e| e.success == Some(false))) {
        issues.push(format!("{failures} of the last {window} actions failed"));
        suggestions.push("Re-observe the page and choose a different element or tool".into());
    }
    let no_progress = window >= EVERY as usize
        && recent
            .iter()
            .all(|e| e.page_after.is_some() && e.page_after == recent[0].page_before);
    if no_progress {
        issues.push(format!("No visible progress in the last {window} steps"));
        suggestions.push("Scroll to find the target or navigate back to the previous page".into());
    }
    let efficiency = match (issues.len(), loops.is_empty()) {
        (0, _) => "high",
        (1, true) => "medium",
        _ => "low",
    };
    Reflection {
        step_number: step,
        steps_analyzed: window as u32,
        efficiency: efficiency.into(),
        should_adjust: !issues.is_empty(),
        issues,
        suggestions,
        timestamp: now,
        avoid_element_ids: avoid,
    }
}

/// Element ids the policy should avoid: loop targets of recent reflections.
pub fn avoided(reflections: &[Reflection], step: u32) -> Vec<String> {
    reflections
        .iter()
        .filter(|r| r.should_adjust && step.saturating_sub(r.step_number) <= LOOP_WINDOW as u32)
        .flat_map(|r| r.avoid_element_ids.iter().cloned())
        .collect()
}

#[cfg(test)]
mod tests;
