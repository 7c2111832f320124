//! web-sys probe: the per-element reads of the snapshot walker
//! (extension/content/walker.js) done from Rust through web-sys, to measure
//! the wasm<->JS boundary cost against the same reads done in plain JS.
//!
//! Per element, in pre-order over document.documentElement
//! (first_element_child / next_element_sibling):
//!   - window.getComputedStyle(el), then getPropertyValue of `display`,
//!     `cursor` and `position` (each a JS string copied into wasm memory);
//!   - el.localName (copied);
//!   - getBoundingClientRect() when the tag is a/button/input/select/
//!     textarea/img or the element is positioned (position != static);
//!   - getAttribute("role"), getAttribute("aria-label").
//!
//! The checksum combines lengths of every string read and the rect sizes, so
//! nothing can be optimised away; tests/bench/websys-vs-walker.mjs computes
//! the same checksum in JS and checks the two agree.
#![forbid(unsafe_code)]

use wasm_bindgen::prelude::*;
use web_sys::{CssStyleDeclaration, Element};

fn mix(h: u32, v: u32) -> u32 {
    h.wrapping_mul(31).wrapping_add(v)
}

/// UTF-16 length, to agree with JS `String.prototype.length`.
fn jslen(s: &str) -> u32 {
    s.encode_utf16().count() as u32
}

fn prop(cs: &CssStyleDeclaration, name: &str) -> String {
    cs.get_property_value(name).unwrap_or_default()
}

#[wasm_bindgen]
pub fn walk_websys() -> u32 {
    let Some(window) = web_sys::window() else {
        return 0;
    };
    let Some(document) = window.document() else {
        return 0;
    };
    let Some(root) = document.document_element() else {
        return 0;
    };

    // No-ops unless built with the `interning` feature; with it, these names
    // are passed to JS as cached strings from then on.
    for name in ["display", "cursor", "position", "role", "aria-label"] {
        wasm_bindgen::intern(name);
    }

    let mut h: u32 = 0;
    let mut el: Option<Element> = Some(root);
    while let Some(e) = el {
        let tag = e.local_name();
        h = mix(h, jslen(&tag));
        if let Ok(Some(cs)) = window.get_computed_style(&e) {
            let display = prop(&cs, "display");
            let cursor = prop(&cs, "cursor");
            let position = prop(&cs, "position");
            h = mix(h, jslen(&display));
            h = mix(h, jslen(&cursor));
            h = mix(h, jslen(&position));
            let wants_rect = matches!(
                tag.as_str(),
                "a" | "button" | "input" | "select" | "textarea" | "img"
            ) || position != "static";
            if wants_rect {
                let r = e.get_bounding_client_rect();
                h = mix(h, r.width() as u32);
                h = mix(h, r.height() as u32);
            }
        }
        if let Some(role) = e.get_attribute("role") {
            h = mix(h, jslen(&role) + 1);
        }
        if let Some(label) = e.get_attribute("aria-label") {
            h = mix(h, jslen(&label) + 1);
        }

        // Next in pre-order.
        el = match e.first_element_child() {
            Some(c) => Some(c),
            None => {
                let mut cur = e;
                loop {
                    if let Some(s) = cur.next_element_sibling() {
                        break Some(s);
                    }
                    // The root's parent is the Document, not an element.
                    match cur.parent_element() {
                        Some(p) => cur = p,
                        None => break None,
                    }
                }
            }
        };
    }
    h
}
