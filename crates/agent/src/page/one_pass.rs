//! The /step hot path: a snapshot of either shape read in **one pass** over
//! its JSON text, each element's object visited once for both the snapshot
//! model's fields (docs/contracts/snapshot.md §3) and the run loop's
//! `DomFacts`, or for the run API's ElementInfo (docs/contracts/run-api.md
//! §12). The careful reader in `shapes.rs` reads the text three times (a
//! probe for the shape, the run loop's additions, then the model), about a
//! tenth of the agent server's CPU per step.
//!
//! This reader only *accepts*: whatever it is not sure of — malformed JSON,
//! a field of the wrong type, a duplicate key, a `state` the careful reader
//! would drop, a shape it cannot tell from its members — it answers `None`
//! and `shapes::from_str` reads the text the careful way. So the snapshots
//! /step accepts, the page they give and every error message are the
//! careful reader's; `page/one_pass_tests.rs` checks the two agree, case by
//! case, and that this reader knows every field of the model.

use super::shapes::{contract_page, ElementInfo, PageSnapshot};
use super::Page;
use sentience_snapshot_core::contract::{SnapshotDiff, SnapshotMeta};
use sentience_snapshot_core::{
    BBox, DomFacts, Element, ElementState, FrameCoverage, Observed, Role, Viewport, VisualCues,
};
use serde::de::{Deserializer, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;

/// Both shapes read at once, or `None` (then read it the careful way).
pub(super) fn read(json: &str) -> Option<(Page, bool)> {
    let wire: Wire = serde_json::from_str(json).ok()?;
    wire.into_page()
}

/// The top-level members either shape reads. `status`, `viewport` or a
/// numeric element id mean the snapshot contract (as `probe.rs` decides).
#[derive(Default)]
struct Wire {
    seen: u32,
    url: String,
    title: Option<String>,
    visible_text: Option<String>,
    elements: Vec<ElementWire>,
    viewport: Viewport,
    /// What `status`, `timestamp`, `screenshot` and `screenshot_format`
    /// were: the contract reads them as strings (the last two optional),
    /// the run API ignores them (its `timestamp` is a number).
    status: Kind,
    timestamp: Kind,
    screenshot: Kind,
    screenshot_format: Kind,
}

/// A top-level member, by its bit in `Wire::seen`.
#[derive(Clone, Copy)]
#[repr(u32)]
enum Top {
    Url = 1,
    Title = 1 << 1,
    VisibleText = 1 << 2,
    Elements = 1 << 3,
    Status = 1 << 4,
    Viewport = 1 << 5,
    Timestamp = 1 << 6,
    Screenshot = 1 << 7,
    ScreenshotFormat = 1 << 8,
    Meta = 1 << 9,
    SnapshotId = 1 << 10,
    Diff = 1 << 11,
    Frames = 1 << 12,
    Other = 0,
}

/// The key names of `Top` and `Member`, each written once: the reader's
/// `match` and the list the test compares with the model's fields come
/// from the same rows (a variant left out of them is never built, and
/// the compiler says so).
macro_rules! key_names {
    ($ty:ident, $names:ident { $($name:literal => $variant:ident,)* }) => {
        impl Keyed for $ty {
            fn of(s: &str) -> $ty {
                match s {
                    $($name => $ty::$variant,)*
                    _ => $ty::Other,
                }
            }
        }
        /// Every key of this kind the reader knows, for the test that no
        /// field of the model is missed.
        #[cfg(test)]
        pub(super) const $names: &[&str] = &[$($name),*];
    };
}

key_names!(Top, TOP_KEYS {
    "url" => Url,
    "title" => Title,
    "visibleText" => VisibleText,
    "elements" => Elements,
    "status" => Status,
    "viewport" => Viewport,
    "timestamp" => Timestamp,
    "screenshot" => Screenshot,
    "screenshot_format" => ScreenshotFormat,
    "meta" => Meta,
    "snapshot_id" => SnapshotId,
    "diff" => Diff,
    "frames" => Frames,
});

/// One element's members, of both shapes.
struct ElementWire {
    seen: u32,
    id: Id,
    /// The role as written: a contract role word, or any ARIA role (run API).
    role: Option<String>,
    text: Option<String>,
    importance: i32,
    bbox: BBox,
    visual_cues: VisualCues,
    in_viewport: bool,
    is_occluded: bool,
    z_index: i32,
    state: ElementState,
    facts: DomFacts,
}

impl Default for ElementWire {
    fn default() -> Self {
        let model = Element::default();
        ElementWire {
            seen: 0,
            id: Id::Missing,
            role: None,
            text: None,
            importance: model.importance,
            bbox: model.bbox,
            visual_cues: model.visual_cues,
            in_viewport: model.in_viewport,
            is_occluded: model.is_occluded,
            z_index: model.z_index,
            state: model.state,
            facts: DomFacts::default(),
        }
    }
}

/// An element member, by its bit in `ElementWire::seen`.
#[derive(Clone, Copy)]
#[repr(u32)]
enum Member {
    Id = 1,
    Role = 1 << 1,
    Text = 1 << 2,
    Importance = 1 << 3,
    BBox = 1 << 4,
    VisualCues = 1 << 5,
    InViewport = 1 << 6,
    IsOccluded = 1 << 7,
    ZIndex = 1 << 8,
    State = 1 << 9,
    Tag = 1 << 10,
    Type = 1 << 11,
    Name = 1 << 12,
    Placeholder = 1 << 13,
    Value = 1 << 14,
    Href = 1 << 15,
    AriaLabel = 1 << 16,
    AriaRole = 1 << 17,
    Disabled = 1 << 18,
    Hint = 1 << 19,
    ReadOnly = 1 << 20,
    Form = 1 << 21,
    Suggests = 1 << 22,
    HasPopup = 1 << 23,
    Row = 1 << 24,
    Other = 0,
}

// The model's `Element` (snake case) and `DomFacts` (camel case, `type`),
// which share no key.
key_names!(Member, ELEMENT_KEYS {
    "id" => Id,
    "role" => Role,
    "text" => Text,
    "importance" => Importance,
    "bbox" => BBox,
    "visual_cues" => VisualCues,
    "in_viewport" => InViewport,
    "is_occluded" => IsOccluded,
    "z_index" => ZIndex,
    "state" => State,
    "tag" => Tag,
    "type" => Type,
    "name" => Name,
    "placeholder" => Placeholder,
    "value" => Value,
    "href" => Href,
    "ariaLabel" => AriaLabel,
    "ariaRole" => AriaRole,
    "disabled" => Disabled,
    "hint" => Hint,
    "readOnly" => ReadOnly,
    "form" => Form,
    "suggests" => Suggests,
    "hasPopup" => HasPopup,
    "row" => Row,
});

/// An element's `id` as written.
enum Id {
    Missing,
    /// The contract's id (`u32`).
    Contract(u32),
    /// A number the contract cannot take (negative, fractional, too big):
    /// still a numeric id, so the snapshot is of the contract's shape.
    OtherNumber,
    /// The run API's id.
    Str(String),
}

/// What a string-typed member held.
#[derive(Default, Clone, Copy, PartialEq, Eq)]
enum Kind {
    #[default]
    Absent,
    Str,
    Null,
    Other,
}

impl Wire {
    fn sentience(&self) -> bool {
        self.seen & (Top::Status as u32 | Top::Viewport as u32) != 0
            || self
                .elements
                .iter()
                .any(|e| matches!(e.id, Id::Contract(_) | Id::OtherNumber))
    }

    fn into_page(self) -> Option<(Page, bool)> {
        let required = Top::Url as u32 | Top::Elements as u32;
        if self.seen & required != required {
            return None;
        }
        let screenshot = self.seen & Top::Screenshot as u32 != 0;
        let page = if self.sentience() {
            self.into_contract_page()?
        } else {
            self.into_agent_page()?
        };
        Some((page, screenshot))
    }

    /// As `shapes::from_str` reads the snapshot contract: `Snapshot` (its
    /// string members typed) and the run loop's additions (each element's
    /// `id` and `role` required).
    fn into_contract_page(self) -> Option<Page> {
        let string = |k: Kind| matches!(k, Kind::Absent | Kind::Str);
        let optional = |k: Kind| matches!(k, Kind::Absent | Kind::Str | Kind::Null);
        if !(string(self.status)
            && string(self.timestamp)
            && optional(self.screenshot)
            && optional(self.screenshot_format))
        {
            return None;
        }
        let mut elements = Vec::with_capacity(self.elements.len());
        for e in self.elements {
            let Id::Contract(id) = e.id else { return None };
            let role = Role::parse(e.role.as_deref()?)?;
            let element = Element {
                id,
                role,
                text: e.text,
                importance: e.importance,
                bbox: e.bbox,
                visual_cues: e.visual_cues,
                in_viewport: e.in_viewport,
                is_occluded: e.is_occluded,
                z_index: e.z_index,
                state: e.state,
            };
            elements.push(Observed {
                element,
                facts: e.facts,
            });
        }
        let viewport_height =
            (self.seen & Top::Viewport as u32 != 0).then_some(self.viewport.height);
        Some(contract_page(
            self.url,
            self.title,
            self.visible_text,
            elements,
            viewport_height,
        ))
    }

    /// As `shapes::from_str` reads the run API's PageSnapshot: each
    /// element's `id` a string and its `tag` required.
    fn into_agent_page(self) -> Option<Page> {
        let mut elements = Vec::with_capacity(self.elements.len());
        for e in self.elements {
            let Id::Str(id) = e.id else { return None };
            if e.seen & Member::Tag as u32 == 0 {
                return None;
            }
            let f = e.facts;
            elements.push(ElementInfo {
                id,
                tag: f.tag,
                role: e.role,
                text: e.text,
                aria_label: Some(f.aria_label),
                placeholder: Some(f.placeholder),
                input_type: Some(f.input_type),
                value: Some(f.value),
                href: Some(f.href),
                disabled: Some(f.disabled),
                name: Some(f.name),
                bbox: Some(e.bbox),
            });
        }
        Some(
            PageSnapshot {
                url: self.url,
                title: self.title,
                visible_text: self.visible_text,
                elements,
            }
            .into_page(),
        )
    }
}

/// The member's value, once: a second one of the same key is refused (as
/// the derived readers of the careful path refuse it).
fn take<'de, T: Deserialize<'de>, A: MapAccess<'de>>(
    map: &mut A,
    seen: &mut u32,
    bit: u32,
) -> Result<T, A::Error> {
    if *seen & bit != 0 {
        return Err(A::Error::custom("duplicate member"));
    }
    *seen |= bit;
    map.next_value()
}

impl<'de> Deserialize<'de> for Wire {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Wire;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a snapshot object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Wire, A::Error> {
                let mut w = Wire::default();
                while let Some(key) = map.next_key::<Key<Top>>()? {
                    let bit = key.0 as u32;
                    let seen = &mut w.seen;
                    match key.0 {
                        Top::Url => w.url = take(&mut map, seen, bit)?,
                        Top::Title => w.title = take(&mut map, seen, bit)?,
                        Top::VisibleText => w.visible_text = take(&mut map, seen, bit)?,
                        Top::Elements => w.elements = take(&mut map, seen, bit)?,
                        Top::Viewport => w.viewport = take(&mut map, seen, bit)?,
                        Top::Status => w.status = take::<KindOf, _>(&mut map, seen, bit)?.0,
                        Top::Timestamp => w.timestamp = take::<KindOf, _>(&mut map, seen, bit)?.0,
                        Top::Screenshot => w.screenshot = take::<KindOf, _>(&mut map, seen, bit)?.0,
                        Top::ScreenshotFormat => {
                            w.screenshot_format = take::<KindOf, _>(&mut map, seen, bit)?.0
                        }
                        // Read only to check them, as the model would.
                        Top::Meta => {
                            take::<SnapshotMeta, _>(&mut map, seen, bit)?;
                        }
                        Top::SnapshotId => {
                            take::<Option<u32>, _>(&mut map, seen, bit)?;
                        }
                        Top::Diff => {
                            take::<Option<SnapshotDiff>, _>(&mut map, seen, bit)?;
                        }
                        Top::Frames => {
                            take::<Option<FrameCoverage>, _>(&mut map, seen, bit)?;
                        }
                        Top::Other => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(w)
            }
        }
        d.deserialize_map(V)
    }
}

impl<'de> Deserialize<'de> for ElementWire {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ElementWire;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an element object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ElementWire, A::Error> {
                let mut e = ElementWire::default();
                while let Some(key) = map.next_key::<Key<Member>>()? {
                    let bit = key.0 as u32;
                    let seen = &mut e.seen;
                    let f = &mut e.facts;
                    match key.0 {
                        Member::Id => e.id = take::<IdOf, _>(&mut map, seen, bit)?.0,
                        Member::Role => e.role = take(&mut map, seen, bit)?,
                        Member::Text => e.text = take(&mut map, seen, bit)?,
                        Member::Importance => e.importance = take(&mut map, seen, bit)?,
                        Member::BBox => e.bbox = take(&mut map, seen, bit)?,
                        Member::VisualCues => e.visual_cues = take(&mut map, seen, bit)?,
                        Member::InViewport => e.in_viewport = take(&mut map, seen, bit)?,
                        Member::IsOccluded => e.is_occluded = take(&mut map, seen, bit)?,
                        Member::ZIndex => e.z_index = take(&mut map, seen, bit)?,
                        Member::State => e.state = take(&mut map, seen, bit)?,
                        Member::Tag => f.tag = take(&mut map, seen, bit)?,
                        Member::Type => f.input_type = take(&mut map, seen, bit)?,
                        Member::Name => f.name = take(&mut map, seen, bit)?,
                        Member::Placeholder => f.placeholder = take(&mut map, seen, bit)?,
                        Member::Value => f.value = take(&mut map, seen, bit)?,
                        Member::Href => f.href = take(&mut map, seen, bit)?,
                        Member::AriaLabel => f.aria_label = take(&mut map, seen, bit)?,
                        Member::AriaRole => f.aria_role = take(&mut map, seen, bit)?,
                        Member::Disabled => f.disabled = take(&mut map, seen, bit)?,
                        Member::Hint => f.hint = take(&mut map, seen, bit)?,
                        Member::ReadOnly => f.read_only = take(&mut map, seen, bit)?,
                        Member::Form => f.form = take(&mut map, seen, bit)?,
                        Member::Suggests => f.suggests = take(&mut map, seen, bit)?,
                        Member::HasPopup => f.has_popup = take(&mut map, seen, bit)?,
                        Member::Row => f.row = take(&mut map, seen, bit)?,
                        Member::Other => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                // A `role` of null: the run API reads it as none, the
                // contract refuses it; neither is worth a fast path.
                if e.seen & Member::Role as u32 != 0 && e.role.is_none() {
                    return Err(A::Error::custom("role null"));
                }
                Ok(e)
            }
        }
        d.deserialize_map(V)
    }
}

/// A kind of key read by its name (`key_names!`).
trait Keyed: Sized {
    fn of(s: &str) -> Self;
}

/// A key, matched without building a `String`.
struct Key<K>(K);

impl<'de, K: Keyed> Deserialize<'de> for Key<K> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<K>(std::marker::PhantomData<K>);
        impl<K: Keyed> Visitor<'_> for V<K> {
            type Value = Key<K>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E>(self, s: &str) -> Result<Key<K>, E> {
                Ok(Key(K::of(s)))
            }
        }
        d.deserialize_str(V(std::marker::PhantomData))
    }
}

/// Which kind of value a member held, without copying a string (a
/// screenshot's base64 can be large).
struct KindOf(Kind);

impl<'de> Deserialize<'de> for KindOf {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = KindOf;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("anything")
            }
            fn visit_str<E>(self, _: &str) -> Result<KindOf, E> {
                Ok(KindOf(Kind::Str))
            }
            fn visit_unit<E>(self) -> Result<KindOf, E> {
                Ok(KindOf(Kind::Null))
            }
            fn visit_none<E>(self) -> Result<KindOf, E> {
                Ok(KindOf(Kind::Null))
            }
            fn visit_bool<E>(self, _: bool) -> Result<KindOf, E> {
                Ok(KindOf(Kind::Other))
            }
            fn visit_i64<E>(self, _: i64) -> Result<KindOf, E> {
                Ok(KindOf(Kind::Other))
            }
            fn visit_u64<E>(self, _: u64) -> Result<KindOf, E> {
                Ok(KindOf(Kind::Other))
            }
            fn visit_f64<E>(self, _: f64) -> Result<KindOf, E> {
                Ok(KindOf(Kind::Other))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<KindOf, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(KindOf(Kind::Other))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<KindOf, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(KindOf(Kind::Other))
            }
        }
        d.deserialize_any(V)
    }
}

/// An element's `id`: a number or a string (anything else is refused).
struct IdOf(Id);

impl<'de> Deserialize<'de> for IdOf {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = IdOf;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number or a string")
            }
            fn visit_u64<E>(self, n: u64) -> Result<IdOf, E> {
                Ok(IdOf(u32::try_from(n).map_or(Id::OtherNumber, Id::Contract)))
            }
            fn visit_i64<E>(self, n: i64) -> Result<IdOf, E> {
                Ok(IdOf(u32::try_from(n).map_or(Id::OtherNumber, Id::Contract)))
            }
            fn visit_f64<E>(self, _: f64) -> Result<IdOf, E> {
                Ok(IdOf(Id::OtherNumber))
            }
            fn visit_str<E>(self, s: &str) -> Result<IdOf, E> {
                Ok(IdOf(Id::Str(s.to_owned())))
            }
            fn visit_string<E>(self, s: String) -> Result<IdOf, E> {
                Ok(IdOf(Id::Str(s)))
            }
        }
        d.deserialize_any(V)
    }
}
