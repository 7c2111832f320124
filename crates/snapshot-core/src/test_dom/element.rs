//! [`El`]: one element under construction, with setters named after the
//! HTML attributes and CSS facts they stand for.

use crate::contract::BBox;
use crate::raw::{Flags, RawNode, Rgba};
/// `rgb(r, g, b)`: an opaque colour.
pub fn rgb(r: u8, g: u8, b: u8) -> Rgba {
    Rgba::new(r, g, b, 255)
}

/// `rgba(r, g, b, a)` with alpha in 0..=255.
pub fn rgba(r: u8, g: u8, b: u8, a: u8) -> Rgba {
    Rgba::new(r, g, b, a)
}

/// Starts an element with the given tag.
pub fn el(tag: &str) -> El {
    El {
        node: RawNode {
            tag: tag.to_ascii_lowercase(),
            rect: BBox {
                x: 0.0,
                y: 0.0,
                width: 100.0,
                height: 20.0,
            },
            ..RawNode::default()
        },
        set: Explicit::default(),
        children: Vec::new(),
    }
}

/// A CSS property that is inherited unless the element sets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum Inherit {
    #[default]
    FromParent,
    On,
    Off,
}

/// Which inheritable facts the test set on this element itself.
#[derive(Debug, Clone, Default)]
pub(super) struct Explicit {
    pub(super) id: bool,
    pub(super) z: bool,
    pub(super) clip: bool,
    pub(super) effective_bg: bool,
    pub(super) form: bool,
    pub(super) visible: Inherit,
    pub(super) pointer: Inherit,
}

/// One element under construction; nest with [`El::child`].
#[derive(Debug, Clone)]
pub struct El {
    pub(super) node: RawNode,
    pub(super) set: Explicit,
    pub(super) children: Vec<El>,
}

macro_rules! string_setters {
    ($($(#[$doc:meta])* $fn:ident => $field:ident;)*) => {$(
        $(#[$doc])*
        pub fn $fn(mut self, v: &str) -> Self {
            self.node.$field = v.to_string();
            self
        }
    )*};
}

macro_rules! flag_setters {
    ($($(#[$doc:meta])* $fn:ident => $bit:ident;)*) => {$(
        $(#[$doc])*
        pub fn $fn(self) -> Self {
            self.flag(Flags::$bit)
        }
    )*};
}

impl El {
    string_setters! {
        /// The `type` attribute (stored lower-cased, as the walker does).
        typ => input_type;
        /// The `role` attribute, verbatim.
        role => role_attr;
        aria_label => aria_label;
        /// The text of the `aria-labelledby` targets.
        labelledby => labelledby_text;
        /// The text of the element's `<label>`s.
        labels => labels_text;
        value => value;
        placeholder => placeholder;
        alt => alt;
        title => title;
        /// Rendered text (`innerText`).
        text => text;
        name => name;
        /// Options in the wire form (`raw::S_OPTIONS`).
        options => options;
    }

    flag_setters! {
        /// `<a href>`.
        href => HAS_HREF;
        onclick => ONCLICK;
        tabindex => TABINDEX;
        disabled => DISABLED;
        /// The `hidden` attribute (but still rendered, e.g. overridden by CSS).
        hidden_attr => HIDDEN_ATTR;
        /// `position: relative/absolute`.
        positioned => POSITIONED;
        transparent => TRANSPARENT;
        pointer_events_none => POINTER_EVENTS_NONE;
        contenteditable => CONTENTEDITABLE;
        /// An image with an intrinsic picture.
        replaced => REPLACED;
        focusable => NATIVELY_FOCUSABLE;
        /// `<input list=…>`.
        list => HAS_LIST;
        checked => CHECKED;
        in_search => IN_SEARCH;
        /// `<select multiple>`.
        listbox => LISTBOX_SELECT;
        has_popup => HAS_POPUP;
        mixed => MIXED;
        /// `aria-selected` present (with `selected` for its value).
        has_selected => HAS_SELECTED;
        selected => SELECTED;
        expanded => EXPANDED;
        collapsed => COLLAPSED;
        required => REQUIRED;
    }

    /// `position: fixed`.
    pub fn fixed(self) -> Self {
        self.flag(Flags::POSITIONED | Flags::FIXED)
    }

    /// Sets raw flag bits. `VISIBLE` and `CURSOR_POINTER` go through the
    /// inheritance logic, as with [`El::visible`] / [`El::pointer`].
    pub fn flag(mut self, bits: u32) -> Self {
        if bits & Flags::VISIBLE != 0 {
            self.set.visible = Inherit::On;
        }
        if bits & Flags::CURSOR_POINTER != 0 {
            self.set.pointer = Inherit::On;
        }
        self.node.flags.0 |= bits & !(Flags::VISIBLE | Flags::CURSOR_POINTER);
        self
    }

    /// Clears raw flag bits (same special cases as [`El::flag`]).
    pub fn clear(mut self, bits: u32) -> Self {
        if bits & Flags::VISIBLE != 0 {
            self.set.visible = Inherit::Off;
        }
        if bits & Flags::CURSOR_POINTER != 0 {
            self.set.pointer = Inherit::Off;
        }
        self.node.flags.0 &= !bits;
        self
    }

    /// `visibility: visible` set here (overrides a hidden ancestor).
    pub fn visible(mut self) -> Self {
        self.set.visible = Inherit::On;
        self
    }

    /// `visibility: hidden`.
    pub fn invisible(mut self) -> Self {
        self.set.visible = Inherit::Off;
        self
    }

    /// `cursor: pointer` set here.
    pub fn pointer(mut self) -> Self {
        self.set.pointer = Inherit::On;
        self
    }

    /// `cursor: auto` set here (stops an inherited pointer).
    pub fn cursor_auto(mut self) -> Self {
        self.set.pointer = Inherit::Off;
        self
    }

    pub fn rect<X, Y, W, H>(mut self, x: X, y: Y, w: W, h: H) -> Self
    where
        X: Into<f64>,
        Y: Into<f64>,
        W: Into<f64>,
        H: Into<f64>,
    {
        self.node.rect = bbox(x.into(), y.into(), w.into(), h.into());
        self
    }

    /// The clip of overflow-clipping ancestors (inherited by descendants).
    pub fn clip<X, Y, W, H>(mut self, x: X, y: Y, w: W, h: H) -> Self
    where
        X: Into<f64>,
        Y: Into<f64>,
        W: Into<f64>,
        H: Into<f64>,
    {
        self.node.clip = Some(bbox(x.into(), y.into(), w.into(), h.into()));
        self.set.clip = true;
        self
    }

    /// Own `background-color` (also becomes the effective background here
    /// and below, unless set otherwise).
    pub fn bg(mut self, c: Rgba) -> Self {
        self.node.background = Some(c);
        self
    }

    /// Overrides the effective background the walker would compute.
    pub fn effective_bg(mut self, c: Option<Rgba>) -> Self {
        self.node.effective_background = c;
        self.set.effective_bg = true;
        self
    }

    /// Effective z-index (inherited by descendants unless set).
    pub fn z(mut self, z: i32) -> Self {
        self.node.z_index = z;
        self.set.z = true;
        self
    }

    pub fn id(mut self, id: u32) -> Self {
        self.node.stable_id = id;
        self.set.id = true;
        self
    }

    /// Owning `<form>` by node index (otherwise the nearest `<form>` ancestor).
    pub fn form(mut self, index: usize) -> Self {
        self.node.form = u32::try_from(index).ok();
        self.set.form = true;
        self
    }

    /// For a `<label>`: the node index of its control.
    pub fn label_for(mut self, index: usize) -> Self {
        self.node.label_for = u32::try_from(index).ok();
        self
    }

    /// Appends a nested child (flattened in document order by the builder).
    pub fn child(mut self, child: El) -> Self {
        self.children.push(child);
        self
    }
}

fn bbox(x: f64, y: f64, width: f64, height: f64) -> BBox {
    BBox {
        x,
        y,
        width,
        height,
    }
}
