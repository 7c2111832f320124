//! Loop detection (docs/contracts/tools.md §17.1; docs/hands.md).
//!
//! The spec: keep the last 10 actions; the last three of one type, and for
//! clicks all within 50 px in x and in y (`xRange < 50 && yRange < 50`),
//! mean a loop. Beyond the spec, two more repetitions count: typing the
//! same text into the same place three times, and three actions in a row
//! after which the page did not change (same fingerprint as before).

use crate::config::HandsConfig;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// One action as the detector records it (the spec's `addAction` fields,
/// plus what the extra rules need).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ActionRecord {
    /// `click`, `double_click`, `type`, `scroll`, … (the spec's `action.type`).
    #[serde(rename = "type")]
    pub kind: String,
    pub x: Option<f64>,
    pub y: Option<f64>,
    pub selector: Option<String>,
    /// The text typed, for `type` actions.
    pub text: Option<String>,
    /// Fingerprint of the page before and after the action (URL, snapshot
    /// or screenshot hash: any string that is equal when nothing changed).
    pub page_before: Option<String>,
    pub page_after: Option<String>,
    pub timestamp: f64,
}

/// Why the detector called it a loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoopKind {
    /// docs/contracts/tools.md §17.1: three clicks within the radius.
    RepeatedClick,
    /// Beyond the spec: the same text typed into the same place.
    RepeatedTyping,
    /// Beyond the spec: the page did not change across the last actions.
    PageUnchanged,
}

/// docs/contracts/tools.md §17.1 `getSuggestedWorkaround()`, machine-readable: each entry
/// names a strategy a client can apply, with the spec's own words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Workaround {
    /// "Prova double_click invece di single click".
    DoubleClick,
    /// "Prova a scrollare per rendere visibile l'elemento".
    ScrollIntoView,
    /// "Verifica se l'elemento è dentro un iframe".
    CheckIframe,
    /// "Prova ad usare un selettore diverso".
    DifferentSelector,
}

impl Workaround {
    pub const ALL: [Workaround; 4] = [
        Workaround::DoubleClick,
        Workaround::ScrollIntoView,
        Workaround::CheckIframe,
        Workaround::DifferentSelector,
    ];

    /// The English wording of the spec's suggestion.
    pub fn describe(self) -> &'static str {
        match self {
            Workaround::DoubleClick => "Try a double click instead of a single click",
            Workaround::ScrollIntoView => "Scroll to bring the element into view",
            Workaround::CheckIframe => "Check whether the element is inside an iframe",
            Workaround::DifferentSelector => "Try a different selector or target",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoopReport {
    pub kind: LoopKind,
    pub workarounds: Vec<Workaround>,
}

#[derive(Debug, Clone, Default)]
pub struct LoopDetector {
    history: VecDeque<ActionRecord>,
    config: HandsConfig,
}

impl LoopDetector {
    pub fn new(config: HandsConfig) -> Self {
        LoopDetector {
            history: VecDeque::new(),
            config,
        }
    }

    /// docs/contracts/tools.md §17.1 `addAction`: append, keep the last `loop_history`.
    pub fn add_action(&mut self, action: ActionRecord) {
        self.history.push_back(action);
        while self.history.len() > self.config.loop_history.max(1) {
            self.history.pop_front();
        }
    }

    /// Record that the page after the last action has this fingerprint.
    pub fn set_last_page_after(&mut self, fingerprint: String) {
        if let Some(last) = self.history.back_mut() {
            last.page_after = Some(fingerprint);
        }
    }

    pub fn history(&self) -> impl Iterator<Item = &ActionRecord> {
        self.history.iter()
    }

    pub fn clear(&mut self) {
        self.history.clear();
    }

    /// docs/contracts/tools.md §17.1 `detectLoop()` (a bool there).
    pub fn detect_loop(&self) -> bool {
        self.detect().is_some()
    }

    /// The loop found, if any, with the workarounds worth trying.
    pub fn detect(&self) -> Option<LoopReport> {
        let n = self.config.loop_repeat.max(1);
        if self.history.len() < n {
            return None;
        }
        let last: Vec<&ActionRecord> = self.history.iter().skip(self.history.len() - n).collect();
        let kind0 = last[0].kind.as_str();
        let same_type = last.iter().all(|a| a.kind == kind0);
        if same_type && is_click(kind0) && self.clicks_close(&last) {
            return Some(report(LoopKind::RepeatedClick));
        }
        if same_type && kind0 == "type" && same_typing(&last, self.config.loop_click_radius_px) {
            return Some(report(LoopKind::RepeatedTyping));
        }
        let unchanged = last
            .iter()
            .all(|a| matches!((&a.page_before, &a.page_after), (Some(b), Some(f)) if b == f));
        if unchanged {
            return Some(report(LoopKind::PageUnchanged));
        }
        None
    }

    /// docs/contracts/tools.md §17.1: `xRange < 50 && yRange < 50` (strict, as the spec).
    fn clicks_close(&self, last: &[&ActionRecord]) -> bool {
        let Some(pts) = points(last) else {
            return false;
        };
        let r = self.config.loop_click_radius_px;
        range(pts.iter().map(|p| p.0)) < r && range(pts.iter().map(|p| p.1)) < r
    }

    /// docs/contracts/tools.md §17.1 `getSuggestedWorkaround()`.
    pub fn suggested_workarounds(&self) -> Vec<Workaround> {
        Workaround::ALL.to_vec()
    }
}

fn report(kind: LoopKind) -> LoopReport {
    // A page that ignores us is not helped by a double click at the same
    // place first: a different target comes first there.
    let workarounds = match kind {
        LoopKind::RepeatedClick => Workaround::ALL.to_vec(),
        LoopKind::RepeatedTyping | LoopKind::PageUnchanged => vec![
            Workaround::DifferentSelector,
            Workaround::ScrollIntoView,
            Workaround::CheckIframe,
            Workaround::DoubleClick,
        ],
    };
    LoopReport { kind, workarounds }
}

fn is_click(kind: &str) -> bool {
    matches!(
        kind,
        "click" | "single_click" | "double_click" | "right_click"
    )
}

fn points(last: &[&ActionRecord]) -> Option<Vec<(f64, f64)>> {
    last.iter().map(|a| Some((a.x?, a.y?))).collect()
}

fn range(v: impl Iterator<Item = f64>) -> f64 {
    let (lo, hi) = v.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    hi - lo
}

/// Same text each time, into the same selector, or (without selectors) at
/// points within the click radius.
fn same_typing(last: &[&ActionRecord], radius: f64) -> bool {
    let text = &last[0].text;
    if text.is_none() || last.iter().any(|a| &a.text != text) {
        return false;
    }
    if let Some(sel) = &last[0].selector {
        return last.iter().all(|a| a.selector.as_ref() == Some(sel));
    }
    match points(last) {
        Some(pts) => {
            range(pts.iter().map(|p| p.0)) < radius && range(pts.iter().map(|p| p.1)) < radius
        }
        // Neither selector nor point: typing where the focus is, each time.
        None => last.iter().all(|a| a.selector.is_none() && a.x.is_none()),
    }
}

#[cfg(test)]
mod tests;
