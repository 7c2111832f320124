//! Sliders on the page: which elements are a slider's handle, and the value
//! each one shows. A slider is set by its keys (WAI-ARIA APG "Slider": the
//! arrow keys step the value, Right/Up up, Left/Down down), so the planner
//! needs the value it holds now to know how many steps to press.

use crate::page::Page;
use crate::planner::layout::reading_order;
use sentience_snapshot_core::Observed;

/// A slider's handle: an `<input type=range>` (HTML-AAM: slider), an
/// element whose ARIA role is `slider`, or a drawn thumb whose id or class
/// words say it is a slider's handle or thumb (jQuery UI's
/// `ui-slider-handle`, MUI's `MuiSlider-thumb`, noUiSlider's
/// `noUi-handle`), which carries no role of its own.
pub fn is_slider(e: &Observed) -> bool {
    if e.is_disabled() {
        return false;
    }
    let f = &e.facts;
    if (f.tag == "input" && f.input_type == "range") || f.aria_role == "slider" {
        return true;
    }
    let hint = f.hint.to_lowercase();
    let words: Vec<&str> = hint
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let sliderish = words
        .iter()
        .any(|w| w.ends_with("slider") || *w == "range" || *w == "noui");
    let handle = words
        .iter()
        .any(|w| w.ends_with("handle") || w.ends_with("thumb"));
    sliderish && handle
}

/// The page's sliders in reading order.
pub fn sliders(page: &Page) -> Vec<&Observed> {
    let mut out: Vec<&Observed> = page.elements.iter().filter(|e| is_slider(e)).collect();
    out.sort_by(|a, b| reading_order(a, b));
    out
}

/// The value a slider holds now: its own (a range input's value), else
/// the number its readout shows. A readout is the text a page writes
/// beside the slider: the numbers between the element before a run of
/// sliders and the element after it (reading order), one per slider of the
/// run, in order ("[slider] 12 [slider] 3 [Submit]" → 12, 3). A run whose
/// gap shows more or fewer numbers than it has sliders has no readouts (a
/// scale "0 … 100" is not a value).
pub fn value_of(page: &Page, task: &str, slider: &Observed) -> Option<f64> {
    if slider.facts.tag == "input" {
        if let Ok(v) = slider.facts.value.trim().parse::<f64>() {
            return Some(v);
        }
    }
    let mut order: Vec<&Observed> = page.elements.iter().collect();
    order.sort_by(|a, b| reading_order(a, b));
    let at = order.iter().position(|e| std::ptr::eq(*e, slider))?;
    let shows = |e: &Observed| !e.text().trim().is_empty() && !is_slider(e);
    // The run of sliders around this one, with nothing that shows words
    // between them.
    let mut start = at;
    while start > 0 && !shows(order[start - 1]) {
        start -= 1;
    }
    let mut end = at + 1;
    while end < order.len() && !shows(order[end]) {
        end += 1;
    }
    let run: Vec<&Observed> = order[start..end]
        .iter()
        .copied()
        .filter(|e| is_slider(e))
        .collect();
    let index = run.iter().position(|e| std::ptr::eq(*e, slider))?;
    // The gap in the visible text: after the element before the run (and
    // after the task, when the page shows it), up to the element after it.
    let text = page.visible_text.as_str();
    let mut from = text.find(task.trim()).map_or(0, |p| p + task.trim().len());
    if start > 0 {
        let before = order[start - 1].text().trim();
        if let Some(p) = text[from..].find(before) {
            from += p + before.len();
        }
    }
    let to = if end < order.len() {
        let after = order[end].text().trim();
        text[from..].find(after).map_or(text.len(), |p| from + p)
    } else {
        text.len()
    };
    let numbers: Vec<f64> = text[from..to]
        .split_whitespace()
        .filter_map(signed_number)
        .collect();
    if numbers.len() != run.len() {
        return None;
    }
    numbers.get(index).copied()
}

/// A word that is a number, maybe signed or a percentage ("-95", "12", "40%").
fn signed_number(w: &str) -> Option<f64> {
    let w = w.trim_matches(|c: char| matches!(c, ',' | ';' | ':' | '(' | ')' | '[' | ']' | '%'));
    let digits = w.strip_prefix(['-', '\u{2212}']).unwrap_or(w);
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return None;
    }
    let n: f64 = digits.parse().ok()?;
    Some(if digits.len() < w.len() { -n } else { n })
}

#[cfg(test)]
mod tests {
    use super::signed_number;

    #[test]
    fn numbers_keep_their_sign() {
        assert_eq!(signed_number("-95"), Some(-95.0));
        assert_eq!(signed_number("12,"), Some(12.0));
        assert_eq!(signed_number("40%"), Some(40.0));
        assert_eq!(signed_number("Submit"), None);
        assert_eq!(signed_number("2-10"), None);
    }
}
