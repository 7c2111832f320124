//! The raw page model: what the in-page walker (extension/content/walker.js)
//! reads from the live DOM, and the only input the engine ever sees.
//!
//! It is an in-memory DOM reduced to the facts the rules need: one
//! [`RawNode`] per recorded element, in document (pre-)order, each pointing
//! at its nearest recorded ancestor. Native tests build pages with
//! [`crate::test_dom`]; the browser sends the columnar wire form decoded by
//! [`decode`]. Keeping the walker a dumb collector puts every decision (which
//! element, which role, which text, what is occluded) in Rust.
//!
//! Wire form (version [`WIRE_VERSION`]):
//! - `meta: [f64]` = `[version, viewport_w, viewport_h, elements_scanned, node_count]`
//! - `nums: [f64]`, [`NUM_STRIDE`] numbers per node, laid out as the `N_*` constants
//! - `strs: str`, [`STR_FIELDS`] strings per node plus 2 page strings first
//!   (url, timestamp), all joined by [`SEP`] (the walker strips `SEP` from text).
//! - [`S_OPTIONS`] holds a `<select>`'s or ARIA listbox's options as
//!   `text OPT_FIELD value OPT_FIELD selected("1"|"0")`, options joined by
//!   [`OPT_SEP`] (the walker strips both from option text and values).

use crate::contract::{BBox, Viewport};

#[path = "raw_error.rs"]
mod error;
pub use error::DecodeError;

pub const WIRE_VERSION: f64 = 2.0;
pub const SEP: char = '\u{1f}';
/// Between two options in [`S_OPTIONS`].
pub const OPT_SEP: char = '\u{1e}';
/// Between the text, value and selected mark of one option in [`S_OPTIONS`].
pub const OPT_FIELD: char = '\u{1d}';

// Numeric columns.
pub const N_STABLE_ID: usize = 0;
pub const N_PARENT: usize = 1; // -1: none
pub const N_X: usize = 2;
pub const N_Y: usize = 3;
pub const N_W: usize = 4;
pub const N_H: usize = 5;
pub const N_FLAGS: usize = 6;
pub const N_Z: usize = 7;
pub const N_BG: usize = 8; // own background rgba packed 0xRRGGBBAA, -1: transparent
pub const N_BG_EFFECTIVE: usize = 9; // nearest non-transparent ancestor-or-self, -1: none
pub const N_CLIP_X: usize = 10; // clip rect of overflow-clipping ancestors; w < 0: none
pub const N_CLIP_Y: usize = 11;
pub const N_CLIP_W: usize = 12;
pub const N_CLIP_H: usize = 13;
pub const N_FORM: usize = 14; // node index of the owning <form>, -1: none
pub const N_LABEL_FOR: usize = 15; // for <label>: node index of its control, -1: none
pub const NUM_STRIDE: usize = 16;

// String columns.
pub const S_TAG: usize = 0;
pub const S_ROLE: usize = 1;
pub const S_TYPE: usize = 2;
pub const S_ARIA_LABEL: usize = 3;
pub const S_LABELLEDBY: usize = 4;
pub const S_LABELS: usize = 5;
pub const S_VALUE: usize = 6;
pub const S_PLACEHOLDER: usize = 7;
pub const S_ALT: usize = 8;
pub const S_TITLE: usize = 9;
pub const S_TEXT: usize = 10;
pub const S_NAME: usize = 11;
pub const S_OPTIONS: usize = 12;
pub const STR_FIELDS: usize = 13;

/// Boolean facts about a node, one bit each (the `N_FLAGS` column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Flags(pub u32);

impl Flags {
    /// computed `visibility` is `visible`.
    pub const VISIBLE: u32 = 1 << 0;
    /// computed `cursor` is `pointer`.
    pub const CURSOR_POINTER: u32 = 1 << 1;
    /// the parent's computed `cursor` is `pointer` (so the cursor is inherited, not set here).
    pub const PARENT_CURSOR_POINTER: u32 = 1 << 2;
    /// computed `position` is not `static`.
    pub const POSITIONED: u32 = 1 << 3;
    /// computed `position` is `fixed` or `sticky`.
    pub const FIXED: u32 = 1 << 4;
    /// `disabled` (the element's `:disabled` state) or `aria-disabled="true"`.
    pub const DISABLED: u32 = 1 << 5;
    /// an `onclick` attribute or property handler.
    pub const ONCLICK: u32 = 1 << 6;
    /// a `tabindex` attribute >= 0.
    pub const TABINDEX: u32 = 1 << 7;
    /// the root of a `contenteditable` editing host.
    pub const CONTENTEDITABLE: u32 = 1 << 8;
    /// computed `pointer-events` is `none`.
    pub const POINTER_EVENTS_NONE: u32 = 1 << 9;
    /// the `hidden` attribute is present.
    pub const HIDDEN_ATTR: u32 = 1 << 10;
    /// checked (checkbox / radio) or `aria-checked="true"`.
    pub const CHECKED: u32 = 1 << 11;
    /// `<select multiple>` or `size` > 1.
    pub const LISTBOX_SELECT: u32 = 1 << 12;
    /// an `<input list=…>`.
    pub const HAS_LIST: u32 = 1 << 13;
    /// `<a href>` / `<area href>`.
    pub const HAS_HREF: u32 = 1 << 14;
    /// computed `opacity` is 0.
    pub const TRANSPARENT: u32 = 1 << 15;
    /// inside a search landmark (`<search>`, `role=search`, `<form role=search>`).
    pub const IN_SEARCH: u32 = 1 << 16;
    /// `aria-haspopup` is set to a true value (menus, listboxes).
    pub const HAS_POPUP: u32 = 1 << 17;
    /// the element is an `<img>` (or `<svg>`/`<canvas>`) with an intrinsic picture.
    pub const REPLACED: u32 = 1 << 18;
    /// the walker found the element focusable by default (form controls, `a[href]`, `summary`).
    pub const NATIVELY_FOCUSABLE: u32 = 1 << 19;
    /// `aria-checked="mixed"` or an indeterminate native checkbox.
    pub const MIXED: u32 = 1 << 20;
    /// `aria-selected` is present (`SELECTED` then says its value).
    pub const HAS_SELECTED: u32 = 1 << 21;
    /// `aria-selected="true"`.
    pub const SELECTED: u32 = 1 << 22;
    /// `aria-expanded="true"`, or a `<summary>` whose `<details>` is open.
    pub const EXPANDED: u32 = 1 << 23;
    /// `aria-expanded="false"`, or a `<summary>` whose `<details>` is closed.
    pub const COLLAPSED: u32 = 1 << 24;
    /// `required` (native form controls) or `aria-required="true"`.
    pub const REQUIRED: u32 = 1 << 25;

    pub fn has(self, bit: u32) -> bool {
        self.0 & bit != 0
    }
}

/// An sRGB colour with alpha in 0..=255.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rgba {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub a: u8,
}

impl Rgba {
    pub const fn new(r: u8, g: u8, b: u8, a: u8) -> Self {
        Rgba { r, g, b, a }
    }

    /// Decodes the packed `0xRRGGBBAA` wire value; negative or non-finite is "none".
    pub fn unpack(v: f64) -> Option<Rgba> {
        if !v.is_finite() || v < 0.0 || v > u32::MAX as f64 {
            return None;
        }
        let v = v as u32;
        Some(Rgba::new(
            (v >> 24) as u8,
            (v >> 16) as u8,
            (v >> 8) as u8,
            v as u8,
        ))
    }

    pub fn pack(self) -> f64 {
        (((self.r as u32) << 24) | ((self.g as u32) << 16) | ((self.b as u32) << 8) | self.a as u32)
            as f64
    }
}

/// One recorded element.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RawNode {
    /// The id the page keeps for this element across snapshots (the contract's `id`).
    pub stable_id: u32,
    /// Index (in [`RawPage::nodes`]) of the nearest recorded ancestor.
    pub parent: Option<u32>,
    /// Lower-case local name (`a`, `button`, `input`, `my-widget`, …).
    pub tag: String,
    /// `getBoundingClientRect()` in top-level viewport coordinates.
    pub rect: BBox,
    /// The part of the viewport left visible by overflow-clipping ancestors.
    pub clip: Option<BBox>,
    pub flags: Flags,
    /// Effective CSS z-index: that of the nearest ancestor-or-self positioned
    /// element with a non-`auto` z-index, 0 when none.
    pub z_index: i32,
    /// Own computed `background-color`, `None` when fully transparent.
    pub background: Option<Rgba>,
    /// First non-transparent background up the ancestor chain (self included).
    pub effective_background: Option<Rgba>,
    /// Index of the owning `<form>` node.
    pub form: Option<u32>,
    /// For a `<label>`: index of the control it labels.
    pub label_for: Option<u32>,
    /// `role` attribute, verbatim (may hold several tokens).
    pub role_attr: String,
    /// `type` attribute, lower-cased (inputs and buttons).
    pub input_type: String,
    pub aria_label: String,
    /// Text of the elements `aria-labelledby` points at, joined by spaces.
    pub labelledby_text: String,
    /// Text of the element's `<label>`s (`for=` and wrapping), joined by spaces.
    pub labels_text: String,
    /// Current value for text-like inputs (never for passwords), the selected
    /// option's text for `<select>`, `value` for input buttons.
    pub value: String,
    pub placeholder: String,
    /// `alt` for images; for other elements the `alt` of their first descendant image.
    pub alt: String,
    pub title: String,
    /// Rendered text (`innerText`), whitespace collapsed, at most a few hundred chars.
    pub text: String,
    /// `name` attribute (form controls).
    pub name: String,
    /// Options of a `<select>` or ARIA listbox, in the [`S_OPTIONS`] wire form.
    pub options: String,
}

impl RawNode {
    pub fn has(&self, bit: u32) -> bool {
        self.flags.has(bit)
    }

    /// A password field: its value must never leave the engine.
    pub fn is_password(&self) -> bool {
        self.tag == "input" && self.input_type.eq_ignore_ascii_case("password")
    }
}

/// The whole page as the walker saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawPage {
    pub url: String,
    /// ISO 8601 time the walk started.
    pub timestamp: String,
    pub viewport: Viewport,
    pub elements_scanned: u32,
    pub nodes: Vec<RawNode>,
}

fn index(v: f64, node: usize, len: usize) -> Result<Option<u32>, DecodeError> {
    if v < 0.0 {
        return Ok(None);
    }
    if !v.is_finite() || v.fract() != 0.0 || v >= len as f64 {
        return Err(DecodeError::Link { node, target: v });
    }
    Ok(Some(v as u32))
}

fn finite(v: f64) -> f64 {
    if v.is_finite() {
        v
    } else {
        0.0
    }
}

/// `strs.split(SEP)`, as a plain byte scan: `str::split` with a char pattern
/// took a sixth of the engine's time on a 10k-element page. `SEP` is ASCII,
/// so every cut falls on a char boundary.
fn split_fields(strs: &str, expected: usize) -> Vec<&str> {
    const SEP_BYTE: u8 = SEP as u8;
    let mut fields = Vec::with_capacity(expected);
    let mut start = 0;
    for (i, b) in strs.bytes().enumerate() {
        if b == SEP_BYTE {
            fields.push(strs.get(start..i).unwrap_or_default());
            start = i + 1;
        }
    }
    fields.push(strs.get(start..).unwrap_or_default());
    fields
}

/// Decodes the columnar wire form sent by the walker. Never panics: the page
/// can influence these values, so every index is checked.
pub fn decode(meta: &[f64], nums: &[f64], strs: &str) -> Result<RawPage, DecodeError> {
    if meta.len() != 5 {
        return Err(DecodeError::Meta(meta.len()));
    }
    if meta[0] != WIRE_VERSION {
        return Err(DecodeError::Version(meta[0]));
    }
    let count = finite(meta[4]).max(0.0) as usize;
    if nums.len() != count.saturating_mul(NUM_STRIDE) {
        return Err(DecodeError::Nums {
            nums: nums.len(),
            nodes: count,
        });
    }
    let fields = split_fields(strs, count * STR_FIELDS + 2);
    if fields.len() != count * STR_FIELDS + 2 {
        return Err(DecodeError::Strs {
            strs: fields.len(),
            nodes: count,
        });
    }
    let mut nodes = Vec::with_capacity(count);
    for i in 0..count {
        let n = &nums[i * NUM_STRIDE..(i + 1) * NUM_STRIDE];
        let s = &fields[2 + i * STR_FIELDS..2 + (i + 1) * STR_FIELDS];
        let clip = (n[N_CLIP_W] >= 0.0).then(|| BBox {
            x: finite(n[N_CLIP_X]),
            y: finite(n[N_CLIP_Y]),
            width: finite(n[N_CLIP_W]),
            height: finite(n[N_CLIP_H]),
        });
        let parent = index(n[N_PARENT], i, count)?;
        if parent.is_some_and(|p| p as usize >= i) {
            return Err(DecodeError::Link {
                node: i,
                target: n[N_PARENT],
            });
        }
        nodes.push(RawNode {
            stable_id: finite(n[N_STABLE_ID]).clamp(0.0, u32::MAX as f64) as u32,
            parent,
            tag: s[S_TAG].to_string(),
            rect: BBox {
                x: finite(n[N_X]),
                y: finite(n[N_Y]),
                width: finite(n[N_W]).max(0.0),
                height: finite(n[N_H]).max(0.0),
            },
            clip,
            flags: Flags(finite(n[N_FLAGS]).clamp(0.0, u32::MAX as f64) as u32),
            z_index: finite(n[N_Z]).clamp(i32::MIN as f64, i32::MAX as f64) as i32,
            background: Rgba::unpack(n[N_BG]),
            effective_background: Rgba::unpack(n[N_BG_EFFECTIVE]),
            form: index(n[N_FORM], i, count)?,
            label_for: index(n[N_LABEL_FOR], i, count)?,
            role_attr: s[S_ROLE].to_string(),
            input_type: s[S_TYPE].to_string(),
            aria_label: s[S_ARIA_LABEL].to_string(),
            labelledby_text: s[S_LABELLEDBY].to_string(),
            labels_text: s[S_LABELS].to_string(),
            value: s[S_VALUE].to_string(),
            placeholder: s[S_PLACEHOLDER].to_string(),
            alt: s[S_ALT].to_string(),
            title: s[S_TITLE].to_string(),
            text: s[S_TEXT].to_string(),
            name: s[S_NAME].to_string(),
            options: s[S_OPTIONS].to_string(),
        });
    }
    Ok(RawPage {
        url: fields[0].to_string(),
        timestamp: fields[1].to_string(),
        viewport: Viewport {
            width: finite(meta[1]).max(0.0),
            height: finite(meta[2]).max(0.0),
        },
        elements_scanned: finite(meta[3]).clamp(0.0, u32::MAX as f64) as u32,
        nodes,
    })
}

/// Encodes a page into the wire form (the inverse of [`decode`]; used by
/// tests and by the servers to replay recorded pages).
pub fn encode(page: &RawPage) -> (Vec<f64>, Vec<f64>, String) {
    let meta = vec![
        WIRE_VERSION,
        page.viewport.width,
        page.viewport.height,
        page.elements_scanned as f64,
        page.nodes.len() as f64,
    ];
    let mut nums = Vec::with_capacity(page.nodes.len() * NUM_STRIDE);
    let mut strs: Vec<&str> = vec![&page.url, &page.timestamp];
    let opt = |v: Option<u32>| v.map_or(-1.0, |v| v as f64);
    for n in &page.nodes {
        let clip = n.clip.unwrap_or(BBox {
            x: 0.0,
            y: 0.0,
            width: -1.0,
            height: -1.0,
        });
        let mut row = [0.0; NUM_STRIDE];
        row[N_STABLE_ID] = n.stable_id as f64;
        row[N_PARENT] = opt(n.parent);
        row[N_X] = n.rect.x;
        row[N_Y] = n.rect.y;
        row[N_W] = n.rect.width;
        row[N_H] = n.rect.height;
        row[N_FLAGS] = n.flags.0 as f64;
        row[N_Z] = n.z_index as f64;
        row[N_BG] = n.background.map_or(-1.0, Rgba::pack);
        row[N_BG_EFFECTIVE] = n.effective_background.map_or(-1.0, Rgba::pack);
        row[N_CLIP_X] = clip.x;
        row[N_CLIP_Y] = clip.y;
        row[N_CLIP_W] = clip.width;
        row[N_CLIP_H] = clip.height;
        row[N_FORM] = opt(n.form);
        row[N_LABEL_FOR] = opt(n.label_for);
        nums.extend_from_slice(&row);
        strs.extend([
            n.tag.as_str(),
            &n.role_attr,
            &n.input_type,
            &n.aria_label,
            &n.labelledby_text,
            &n.labels_text,
            &n.value,
            &n.placeholder,
            &n.alt,
            &n.title,
            &n.text,
            &n.name,
            &n.options,
        ]);
    }
    let sep = SEP.to_string();
    (meta, nums, strs.join(&sep))
}
