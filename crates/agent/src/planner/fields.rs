//! Which field each value of the task goes into, and which values are
//! already entered (from the history, since password fields do not show
//! their value in a snapshot).

use crate::page::{Page, PageElement};
use crate::system2::score::{field_kind, Candidate};
use crate::task::{FieldKind, TaskPlan, TaskValue};
use crate::text::{concepts, quoted, words};
use crate::types::HistoryEntry;

pub fn candidate(e: &PageElement) -> Candidate {
    let (x, y, width, height) = e
        .bbox
        .map(|b| (b.x, b.y, b.width, b.height))
        .unwrap_or((0.0, 0.0, 100.0, 30.0));
    let kind = if !e.input_type.is_empty() {
        e.input_type.clone()
    } else if e.tag == "textarea" {
        "textarea".into()
    } else {
        e.role.clone()
    };
    Candidate {
        text: if e.is_text_entry() {
            format!("{} {} {}", e.aria_label, e.placeholder, e.text)
        } else {
            e.label().to_string()
        },
        kind,
        selector: format!("{} {}", e.name, e.id.key()),
        x,
        y,
        width,
        height,
        is_text_entry: e.is_text_entry(),
        is_primary: e.is_primary,
    }
}

/// Has this value been entered on this page already?
pub fn entered(v: &TaskValue, page: &Page, history: &[HistoryEntry]) -> Option<String> {
    if let Some(e) = page
        .elements
        .iter()
        .find(|e| e.is_text_entry() && !v.value.is_empty() && e.value == v.value)
    {
        return Some(e.id.key());
    }
    history
        .iter()
        .rev()
        .find(|h| {
            h.action == "type"
                && h.param_str("text") == Some(v.value.as_str())
                && h.success != Some(false)
                && h.url.as_deref() == Some(page.url.as_str())
        })
        .and_then(HistoryEntry::element_id)
        .filter(|id| page.find(id).is_some())
}

fn fit(v: &TaskValue, e: &PageElement) -> f64 {
    let Some(kind) = field_kind(&candidate(e)) else {
        return 0.0;
    };
    let mut s = match (v.kind, kind) {
        (a, b) if a == b => 1.0,
        (FieldKind::Username, FieldKind::Email) => 0.7,
        (FieldKind::Email, FieldKind::Username) => 0.6,
        (FieldKind::Password, _) | (_, FieldKind::Password) => 0.0,
        (_, FieldKind::Other) => 0.3,
        _ => 0.05,
    };
    if s > 0.0 && v.kind == FieldKind::Other {
        let label = words(&v.label);
        let desc = words(&e.descriptors());
        if label.iter().any(|w| w.len() > 2 && desc.contains(w)) {
            s += 0.5;
        }
    }
    s
}

/// The best free field for a value (not one already holding another value).
pub fn field_for<'p>(
    v: &TaskValue,
    page: &'p Page,
    taken: &[String],
    avoid: &[String],
) -> Option<&'p PageElement> {
    let mut best: Option<(f64, &PageElement)> = None;
    for e in page
        .elements
        .iter()
        .filter(|e| e.is_text_entry() && !e.disabled)
    {
        let id = e.id.key();
        if taken.contains(&id) || avoid.contains(&id) {
            continue;
        }
        let s = fit(v, e);
        if s >= 0.3 && best.is_none_or(|(b, _)| s > b) {
            best = Some((s, e));
        }
    }
    best.map(|(_, e)| e)
}

/// A quoted string the task's words do not mark as a value ("Apply the
/// coupon code "SPRING20"") is one on a page where nothing shows it and a
/// free text field is named by the words just before it (a field labelled
/// "Coupon code"): it is typed there, not looked for as something to click
/// (tests/pages/browse/tempt-reveal.html, once its field is revealed).
/// Lists and password fields are left to the task's explicit words.
pub fn page_values(task: &str, plan: &mut TaskPlan, page: &Page) {
    let mut prev_end = 0;
    for (pos, end, value) in quoted(task) {
        let before = task.get(prev_end..pos).unwrap_or("");
        prev_end = end;
        if !plan.targets.contains(&value) {
            continue;
        }
        let label_words = words(before);
        let label = label_words[label_words.len().saturating_sub(3)..].join(" ");
        let named = concepts(&label);
        if named.is_empty()
            || page
                .elements
                .iter()
                .any(|e| !e.is_text_entry() && super::find::text_fit(e, &value) >= 0.5)
        {
            continue;
        }
        let field_named = page.elements.iter().any(|e| {
            matches!(e.tag.as_str(), "input" | "textarea")
                && e.is_text_entry()
                && !e.disabled
                && e.input_type != "password"
                && concepts(&e.descriptors()).iter().any(|c| named.contains(c))
        });
        if field_named {
            plan.targets.retain(|t| t != &value);
            plan.values.push(TaskValue {
                kind: FieldKind::Other,
                label,
                value,
            });
        }
    }
}
