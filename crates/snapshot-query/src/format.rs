//! The compact text listing for LLM prompts: one element a line, most
//! important first, never over a token budget (see `tokens` for the
//! estimate), ending with what was left out.
//!
//! ```text
//! 12 button "Sign in" primary @540,312
//! 7 textbox "Email" required value="ada@example.com" @24,310
//! 9 checkbox "Remember me" checked @24,380
//! 31 combobox "Country" value="France" options="Germany|France|Spain|+12" @24,420
//! 44 link "Terms" offscreen @24,1900
//! … 340 more elements (120 below the fold)
//! ```
//!
//! Page text is untrusted: control characters, line and paragraph
//! separators and bidi overrides become spaces and `"` / `\` are escaped, so
//! a page can neither start a line of its own nor close a quoted field and
//! append marks.

use crate::model::{listing_order, Checked, Listed, Snapshot};
use crate::tokens::estimate_tokens;

pub const DEFAULT_MAX_TOKENS: usize = 1000;

const TEXT_CHARS: usize = 80;
const VALUE_CHARS: usize = 40;
const HINT_CHARS: usize = 60;
const OPTION_CHARS: usize = 20;
const OPTIONS_SHOWN: usize = 5;

/// What `format_elements` produced: the text and how many elements it lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Formatted {
    pub text: String,
    pub shown: usize,
    pub total: usize,
    /// Upper bound of the text's tokens (`estimate_tokens(&text)`).
    pub tokens: usize,
}

pub fn format(snapshot: &Snapshot, max_tokens: usize) -> String {
    format_elements(&snapshot.elements, max_tokens).text
}

/// Lists the most important elements that fit in `max_tokens`, then a line
/// saying how many were left out. The listed elements are always a prefix of
/// `listing_order` (in the viewport first, then the rest; each by importance
/// descending, then top to bottom): a long line is never skipped in favour
/// of a shorter, less important one.
pub fn format_elements<E: Listed>(elements: &[E], max_tokens: usize) -> Formatted {
    let order = listing_order(elements);
    let total = order.len();
    let mut offscreen_left = elements.iter().filter(|e| !e.element().in_viewport).count();
    let mut text = String::new();
    let mut used = 0;
    let mut shown = 0;
    for &i in &order {
        let line = element_line(&elements[i]);
        let cost = estimate_tokens(&line);
        let offscreen_after = offscreen_left - usize::from(!elements[i].element().in_viewport);
        let trailer_cost = estimate_tokens(&trailer(total - shown - 1, offscreen_after));
        if used + cost + trailer_cost > max_tokens {
            break;
        }
        text.push_str(&line);
        used += cost;
        shown += 1;
        offscreen_left = offscreen_after;
    }
    // Each accepted line reserved room for exactly this trailer; only when
    // not even the first line fitted may it not fit.
    let tail = trailer(total - shown, offscreen_left);
    let tail_cost = estimate_tokens(&tail);
    if used + tail_cost <= max_tokens {
        text.push_str(&tail);
        used += tail_cost;
    }
    Formatted {
        text,
        shown,
        total,
        tokens: used,
    }
}

fn trailer(left: usize, offscreen: usize) -> String {
    match (left, offscreen) {
        (0, _) => String::new(),
        (1, 0) => "… 1 more element\n".into(),
        (1, _) => "… 1 more element (below the fold)\n".into(),
        (n, 0) => format!("… {n} more elements\n"),
        (n, m) => format!("… {n} more elements ({m} below the fold)\n"),
    }
}

/// One element's line, ending with a newline.
pub fn element_line<E: Listed + ?Sized>(listed: &E) -> String {
    let e = listed.element();
    let mut line = format!(
        "{} {}",
        clean(&listed.id_text(), 40),
        clean(listed.role_text(), 20)
    );
    let text = e.text.as_deref().map(|t| clean(t, TEXT_CHARS));
    if let Some(t) = text.as_deref().filter(|t| !t.is_empty()) {
        line.push_str(&format!(" \"{t}\""));
    }
    let s = &e.state;
    let mut mark = |m: &str| {
        line.push(' ');
        line.push_str(m);
    };
    if e.visual_cues.is_primary {
        mark("primary");
    }
    if s.is_disabled() {
        mark("disabled");
    }
    match s.checked {
        Some(Checked::Bool(true)) => mark("checked"),
        Some(Checked::Bool(false)) => mark("unchecked"),
        Some(Checked::Mixed(_)) => mark("mixed"),
        None => {}
    }
    if s.selected == Some(true) {
        mark("selected");
    }
    match s.expanded {
        Some(true) => mark("expanded"),
        Some(false) => mark("collapsed"),
        None => {}
    }
    if s.is_required() {
        mark("required");
    }
    if let Some(v) = s.value.as_deref() {
        let v = clean(v, VALUE_CHARS);
        // The engine's text of a filled field is often its value already.
        if text.as_deref() != Some(v.as_str()) {
            mark(&format!("value=\"{v}\""));
        }
    }
    let options = s.options();
    if !options.is_empty() {
        let mut shown: Vec<String> = options
            .iter()
            .take(OPTIONS_SHOWN)
            .map(|o| clean(&o.text, OPTION_CHARS).replace('|', "\\|"))
            .collect();
        if options.len() > OPTIONS_SHOWN {
            shown.push(format!("+{}", options.len() - OPTIONS_SHOWN));
        }
        mark(&format!("options=\"{}\"", shown.join("|")));
    }
    for (k, v) in listed.hints() {
        let v = clean(v, HINT_CHARS);
        if !v.is_empty() {
            mark(&format!("{}=\"{v}\"", clean(k, 20)));
        }
    }
    if e.is_occluded {
        mark("occluded");
    }
    if !e.in_viewport {
        mark("offscreen");
    }
    mark(&format!("@{},{}", coord(e.bbox.x), coord(e.bbox.y)));
    line.push('\n');
    line
}

fn coord(v: f64) -> i64 {
    if v.is_finite() {
        v.round().clamp(-1e12, 1e12) as i64
    } else {
        0
    }
}

/// Characters a page could use to forge a line or reorder what is shown.
fn is_forging(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{2028}' | '\u{2029}' // line / paragraph separators
            | '\u{200b}'..='\u{200f}' // zero-width, LRM/RLM
            | '\u{202a}'..='\u{202e}' // bidi embeddings and overrides
            | '\u{2066}'..='\u{2069}' // bidi isolates
            | '\u{feff}')
}

/// Untrusted text → one line: forging characters become spaces, whitespace
/// collapses, at most `max` characters (then "…"), `\` and `"` escaped.
pub fn clean(s: &str, max: usize) -> String {
    let mut out = String::new();
    let mut count = 0;
    let mut pending_space = false;
    for c in s.chars() {
        if c.is_whitespace() || is_forging(c) {
            pending_space = count > 0;
            continue;
        }
        if count + usize::from(pending_space) >= max {
            out.push('…');
            return out;
        }
        if pending_space {
            out.push(' ');
            count += 1;
            pending_space = false;
        }
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
        count += 1;
    }
    out
}
