//! Test pages for the layout passes (`layout_labels.rs`,
//! `layout_toggles.rs`): an element with its DOM facts at a height, and a
//! page of them under a visible text.

use super::Page;
use sentience_snapshot_core::{BBox, DomFacts, Element, Observed, Role};

/// An element at height `y`; an `input` is a tick box when its role is
/// `Checkbox`, a text box otherwise.
pub(super) fn el(id: u32, role: Role, tag: &str, text: &str, y: f64) -> Observed {
    let input_type = match (tag, role) {
        ("input", Role::Checkbox) => "checkbox",
        ("input", _) => "text",
        _ => "",
    };
    Observed {
        element: Element {
            id,
            role,
            text: (!text.is_empty()).then(|| text.to_string()),
            bbox: BBox {
                x: 10.0,
                y,
                width: 80.0,
                height: 16.0,
            },
            ..Default::default()
        },
        facts: DomFacts {
            tag: tag.into(),
            input_type: input_type.into(),
            ..Default::default()
        },
    }
}

/// A page of `elements` whose visible text is `text`.
pub(super) fn page(text: &str, elements: Vec<Observed>) -> Page {
    Page::new(
        "http://x/".into(),
        String::new(),
        text.into(),
        elements,
        None,
    )
}
