//! The raw page model: what the in-page walker (extension/content/walker.js)
//! reads from the live DOM, and the only input the engine ever sees.
//!
//! It is an in-memory DOM reduced to the facts the rules need: one
//! [`RawNode`] per recorded element, in document (pre-)order, each pointing
//! at its nearest recorded ancestor. Native tests build pages with
//! [`crate::test_dom`]; the browser sends the columnar wire form decoded by
//! [`decode`]. Keeping the walker a dumb collector puts every decision (which
//! element, which role, which text, what is occluded, where a frame's
//! elements go) in Rust.
//!
//! # The wire form (version [`WIRE_VERSION`])
//!
//! This file is its only definition: `extension/content/wire.js` is
//! generated from the tables below (`UPDATE_WIRE=1 cargo test -p
//! sentience-snapshot-core wire_js`), and a test fails while it is stale. A walk is
//! three values:
//! - `meta: [f64]`: the page header, [`META_LEN`] numbers laid out as the
//!   `M_*` columns, then one row of [`FRAME_STRIDE`] numbers (the `FR_*`
//!   columns) per child frame merged in (see [`crate::frames`]);
//! - `nums: [f64]`: [`NUM_STRIDE`] numbers per node, laid out as the `N_*`
//!   columns: the top walk's nodes, then each frame's, in frame-table order;
//! - `strs: str`: per walk (the top one, then each frame's) its
//!   [`PAGE_STRS`] page strings (the `P_*` columns) and [`STR_FIELDS`]
//!   strings per node (the `S_*` columns), all joined by [`SEP`] (the walker
//!   strips `SEP` from text).
//!
//! [`S_OPTIONS`] holds a `<select>`'s or ARIA listbox's options as
//! `text OPT_FIELD value OPT_FIELD selected("1"|"0")`, options joined by
//! [`OPT_SEP`] (the walker strips all three separators from option text and
//! values). The walker cuts strings to the `MAX_*` limits.

use crate::contract::{BBox, Viewport};

#[path = "raw_decode.rs"]
mod decode;
#[path = "raw_error.rs"]
mod error;
pub(crate) use decode::push_nodes;
pub use decode::{decode, encode};
pub use error::DecodeError;

/// One named entry of a wire table (a column, a flag bit, a separator, a
/// limit), as `extension/content/wire.js` renders it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WireName {
    pub name: &'static str,
    pub value: f64,
    pub doc: &'static str,
}

/// Declares a table of columns: one `usize` constant per column, numbered
/// in the order written (so no two can share an offset and none can be
/// skipped), `$table` listing them for wire.js, and `$len`, their count.
macro_rules! columns {
    ($(#[$outer:meta])* $table:ident, $len:ident, $enum:ident { $( $(#[doc = $doc:literal])+ $name:ident, )+ }) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(usize)]
        enum $enum { $($name,)+ }
        $( $(#[doc = $doc])+ pub const $name: usize = $enum::$name as usize; )+
        $(#[$outer])*
        pub const $table: &[WireName] = &[$(WireName {
            name: stringify!($name),
            value: $name as f64,
            doc: concat!($($doc),+),
        },)+];
        /// The number of columns in the table.
        pub const $len: usize = $table.len();
    };
}

/// Declares named constants of the wire (separators, limits) and their table.
macro_rules! named {
    ($table:ident: $( $(#[doc = $doc:literal])+ $name:ident: $ty:ty = $value:expr, )+) => {
        $( $(#[doc = $doc])+ pub const $name: $ty = $value; )+
        pub const $table: &[WireName] = &[$(WireName {
            name: stringify!($name),
            value: $name as u32 as f64,
            doc: concat!($($doc),+),
        },)+];
    };
}

/// Bumped whenever a table below changes shape: both ends of a frame walk
/// are content scripts, possibly of two extension versions during an update.
pub const WIRE_VERSION: f64 = 3.0;

columns! {
    /// The page header at the start of `meta`.
    META_COLUMNS, META_LEN, MetaColumn {
        /// [`WIRE_VERSION`].
        M_VERSION,
        /// `window.innerWidth` of the top walk.
        M_VIEWPORT_W,
        /// `window.innerHeight` of the top walk.
        M_VIEWPORT_H,
        /// Elements the top walk visited.
        M_SCANNED,
        /// Nodes recorded by the top walk (frames' nodes are counted in their rows).
        M_NODES,
    }
}

columns! {
    /// A node's numbers in `nums`.
    NUM_COLUMNS, NUM_STRIDE, NumColumn {
        /// The id the page keeps for the element across snapshots.
        N_STABLE_ID,
        /// Node index of the nearest recorded ancestor within the walk, -1: none.
        N_PARENT,
        /// `getBoundingClientRect()` x, in the walk's viewport.
        N_X,
        /// `getBoundingClientRect()` y.
        N_Y,
        /// `getBoundingClientRect()` width.
        N_W,
        /// `getBoundingClientRect()` height.
        N_H,
        /// [`Flags`] bits.
        N_FLAGS,
        /// Effective z-index (see [`RawNode::z_index`]).
        N_Z,
        /// Own background, rgba packed 0xRRGGBBAA, -1: transparent.
        N_BG,
        /// Nearest non-transparent ancestor-or-self background, -1: none.
        N_BG_EFFECTIVE,
        /// Clip rect x of the overflow-clipping ancestors.
        N_CLIP_X,
        /// Clip rect y.
        N_CLIP_Y,
        /// Clip rect width; < 0: no clip.
        N_CLIP_W,
        /// Clip rect height.
        N_CLIP_H,
        /// Node index of the owning `<form>`, -1: none.
        N_FORM,
        /// For a `<label>`: node index of its control, -1: none.
        N_LABEL_FOR,
    }
}

columns! {
    /// A walk's page strings, before its nodes' strings in `strs`.
    PAGE_COLUMNS, PAGE_STRS, PageColumn {
        /// `location.href` (a frame's is read by nobody but a reader of the wire).
        P_URL,
        /// ISO 8601 time the walk started.
        P_TIMESTAMP,
    }
}

columns! {
    /// A node's strings in `strs`.
    STR_COLUMNS, STR_FIELDS, StrColumn {
        /// Lower-case local name.
        S_TAG,
        /// `role` attribute, verbatim.
        S_ROLE,
        /// `type` attribute, lower-cased (inputs and buttons).
        S_TYPE,
        /// `aria-label`.
        S_ARIA_LABEL,
        /// Text of the `aria-labelledby` targets.
        S_LABELLEDBY,
        /// Text of the element's `<label>`s.
        S_LABELS,
        /// Current value (see [`RawNode::value`]).
        S_VALUE,
        /// `placeholder`.
        S_PLACEHOLDER,
        /// `alt`, or the first descendant image's.
        S_ALT,
        /// `title`.
        S_TITLE,
        /// Rendered text, whitespace collapsed.
        S_TEXT,
        /// `name` attribute.
        S_NAME,
        /// Options of a select or listbox (see the module doc).
        S_OPTIONS,
    }
}

columns! {
    /// One child frame in `meta`, after the header: where its walk's nodes
    /// go and how its iframe places them (see [`crate::frames`]). Rows come
    /// in the order of the frames' walks in `nums` and `strs`; a frame's
    /// row comes after its host's.
    FRAME_COLUMNS, FRAME_STRIDE, FrameColumn {
        /// Row of the frame whose walk holds the iframe, -1: the top walk.
        FR_HOST,
        /// Node index in the host walk before which the frame's nodes go (its node count: after all).
        FR_AT,
        /// Host node index of the iframe's nearest recorded ancestor, -1: none.
        FR_PARENT,
        /// The iframe's effective z-index in its host.
        FR_Z,
        /// The iframe's content box x, in the host's viewport.
        FR_X,
        /// Content box y.
        FR_Y,
        /// Content box width.
        FR_W,
        /// Content box height.
        FR_H,
        /// Clip of the iframe's overflow-clipping ancestors, x (host viewport).
        FR_CLIP_X,
        /// Clip y.
        FR_CLIP_Y,
        /// Clip width; < 0: no clip.
        FR_CLIP_W,
        /// Clip height.
        FR_CLIP_H,
        /// Nodes of the frame's walk.
        FR_NODES,
        /// Elements the frame's walk visited.
        FR_SCANNED,
    }
}

columns! {
    /// The engine handle's tracking argument (`Engine.snapshot` in src/lib.rs,
    /// [`crate::engine::Tracking::from_wire`]): what the bridge knows about
    /// this snapshot within its page.
    TRACKING_COLUMNS, TRACKING_LEN, TrackingColumn {
        /// This snapshot's id, increasing within the page's life (0: untracked).
        T_SNAPSHOT_ID,
        /// The page's previous successful snapshot, 0: none.
        T_PREVIOUS_ID,
        /// How long `wait_for_stable` waited (ms), < 0: no wait.
        T_WAITED_MS,
        /// 1 when the page settled within the wait, 0 when it timed out.
        T_SETTLED,
        /// 1 when the bridge gathered the page's frames (the report argument
        /// lists them, [`crate::frame_report`]), 0 with `frames: false`.
        T_FRAMES,
    }
}

named! {
    SEPARATORS:
    /// Between all strings of `strs`.
    SEP: char = '\u{1f}',
    /// Between two options in [`S_OPTIONS`].
    OPT_SEP: char = '\u{1e}',
    /// Between the text, value and selected mark of one option in [`S_OPTIONS`].
    OPT_FIELD: char = '\u{1d}',
    /// Starts a record of the frame report of an included frame
    /// ([`crate::frame_report`]): url, depth, via.
    REPORT_INCLUDED: char = 'i',
    /// Starts a record of a skipped frame: url, reason.
    REPORT_SKIPPED: char = 's',
}

named! {
    LIMITS:
    /// Rendered text, labels, `aria-label`, placeholder, alt, title: at most this many characters.
    MAX_TEXT_CHARS: usize = 300,
    /// A control's value: at most this many characters.
    MAX_VALUE_CHARS: usize = 200,
    /// Role and name attributes, an option's text and value: at most this many characters.
    MAX_SHORT_CHARS: usize = 100,
    /// At most this many options per select or listbox.
    MAX_OPTIONS: usize = 50,
}

/// The limits of `snapshot(options)` that the bridge applies before the
/// engine runs (the wait for stability, the frame phase), taken from
/// [`crate::options`], which validates the options: rendered into wire.js
/// so the bridge reads them instead of copying them.
pub const OPTION_LIMITS: &[WireName] = &[
    WireName {
        name: "STABLE_QUIET_MS",
        value: crate::options::QUIET_MS as f64,
        doc: "`wait_for_stable`: the default quiet period (ms).",
    },
    WireName {
        name: "STABLE_TIMEOUT_MS",
        value: crate::options::TIMEOUT_MS as f64,
        doc: "`wait_for_stable`: the default cap on the wait (ms).",
    },
    WireName {
        name: "STABLE_MAX_TIMEOUT_MS",
        value: crate::options::MAX_TIMEOUT_MS as f64,
        doc: "`wait_for_stable.timeout_ms`: at most this.",
    },
    WireName {
        name: "FRAME_TIMEOUT_MS",
        value: crate::options::FRAME_TIMEOUT_MS as f64,
        doc: "`frames`: each frame's time to answer, by default (ms).",
    },
    WireName {
        name: "FRAME_MAX_TIMEOUT_MS",
        value: crate::options::FRAME_MAX_TIMEOUT_MS as f64,
        doc: "`frames.timeout_ms`: at most this.",
    },
];

/// Boolean facts about a node, one bit each (the `N_FLAGS` column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Flags(pub u32);

/// Declares the [`Flags`] bits, numbered in the order written, and their table.
macro_rules! flag_bits {
    ($( $(#[doc = $doc:literal])+ $name:ident, )+) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(u32)]
        enum FlagBit { $($name,)+ }
        impl Flags {
            $( $(#[doc = $doc])+ pub const $name: u32 = 1 << FlagBit::$name as u32; )+
        }
        /// The [`Flags`] bits, for wire.js.
        pub const FLAG_BITS: &[WireName] = &[$(WireName {
            name: stringify!($name),
            value: Flags::$name as f64,
            doc: concat!($($doc),+),
        },)+];
    };
}

flag_bits! {
    /// computed `visibility` is `visible`.
    VISIBLE,
    /// computed `cursor` is `pointer`.
    CURSOR_POINTER,
    /// the parent's computed `cursor` is `pointer` (so the cursor is inherited, not set here).
    PARENT_CURSOR_POINTER,
    /// computed `position` is not `static`.
    POSITIONED,
    /// computed `position` is `fixed` or `sticky`.
    FIXED,
    /// `disabled` (the element's `:disabled` state) or `aria-disabled="true"`.
    DISABLED,
    /// an `onclick` attribute or property handler.
    ONCLICK,
    /// a `tabindex` attribute >= 0.
    TABINDEX,
    /// the root of a `contenteditable` editing host.
    CONTENTEDITABLE,
    /// computed `pointer-events` is `none`.
    POINTER_EVENTS_NONE,
    /// the `hidden` attribute is present.
    HIDDEN_ATTR,
    /// checked (checkbox / radio) or `aria-checked="true"`.
    CHECKED,
    /// `<select multiple>` or `size` > 1.
    LISTBOX_SELECT,
    /// an `<input list=…>`.
    HAS_LIST,
    /// `<a href>` / `<area href>`.
    HAS_HREF,
    /// computed `opacity` is 0.
    TRANSPARENT,
    /// inside a search landmark (`<search>`, `role=search`, `<form role=search>`).
    IN_SEARCH,
    /// `aria-haspopup` is set to a true value (menus, listboxes).
    HAS_POPUP,
    /// the element is an `<img>` (or `<svg>`/`<canvas>`) with an intrinsic picture.
    REPLACED,
    /// the walker found the element focusable by default (form controls, `a[href]`, `summary`).
    NATIVELY_FOCUSABLE,
    /// `aria-checked="mixed"` or an indeterminate native checkbox.
    MIXED,
    /// `aria-selected` is present (`SELECTED` then says its value).
    HAS_SELECTED,
    /// `aria-selected="true"`.
    SELECTED,
    /// `aria-expanded="true"`, or a `<summary>` whose `<details>` is open.
    EXPANDED,
    /// `aria-expanded="false"`, or a `<summary>` whose `<details>` is closed.
    COLLAPSED,
    /// `required` (native form controls) or `aria-required="true"`.
    REQUIRED,
    /// a button carrying `aria-pressed` (`true`, `false` or `mixed`): a toggle button (`CHECKED` then says pressed).
    TOGGLE,
}

impl Flags {
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
