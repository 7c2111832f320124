//! Reading which shape a /step snapshot is without building a `Value`:
//! numeric element ids, `status` or `viewport` mean the snapshot contract
//! (docs/contracts/snapshot.md); otherwise the run API's PageSnapshot
//! (docs/contracts/run-api.md §12). Also whether it carries a screenshot.

use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

/// Which shape a snapshot is, and whether it has a screenshot, read in one
/// pass without building a `Value`: numeric element ids, `status` or
/// `viewport` mean the snapshot contract, docs/contracts/snapshot.md (as in `Page::from_json`).
#[derive(Deserialize)]
pub(super) struct Probe {
    #[serde(default)]
    pub(super) status: Present,
    #[serde(default)]
    pub(super) viewport: Present,
    #[serde(default)]
    pub(super) screenshot: Present,
    #[serde(default)]
    pub(super) elements: NumericIds,
}

/// The member is there (whatever its value, null included).
#[derive(Default)]
pub(super) struct Present(pub(super) bool);

impl<'de> Deserialize<'de> for Present {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        IgnoredAny::deserialize(d)?;
        Ok(Present(true))
    }
}

/// `elements` is an array with at least one element whose `id` is a number.
#[derive(Default)]
pub(super) struct NumericIds(pub(super) bool);

impl<'de> Deserialize<'de> for NumericIds {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = NumericIds;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("anything")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<NumericIds, A::Error> {
                let mut any = false;
                while let Some(e) = seq.next_element::<NumericId>()? {
                    any |= e.0;
                }
                Ok(NumericIds(any))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<NumericIds, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(NumericIds(false))
            }
            fn visit_bool<E>(self, _: bool) -> Result<NumericIds, E> {
                Ok(NumericIds(false))
            }
            fn visit_i64<E>(self, _: i64) -> Result<NumericIds, E> {
                Ok(NumericIds(false))
            }
            fn visit_u64<E>(self, _: u64) -> Result<NumericIds, E> {
                Ok(NumericIds(false))
            }
            fn visit_f64<E>(self, _: f64) -> Result<NumericIds, E> {
                Ok(NumericIds(false))
            }
            fn visit_str<E>(self, _: &str) -> Result<NumericIds, E> {
                Ok(NumericIds(false))
            }
            fn visit_unit<E>(self) -> Result<NumericIds, E> {
                Ok(NumericIds(false))
            }
            fn visit_none<E>(self) -> Result<NumericIds, E> {
                Ok(NumericIds(false))
            }
        }
        d.deserialize_any(V)
    }
}

/// One element of `elements`: true when it is an object whose `id` is a number.
struct NumericId(bool);

impl<'de> Deserialize<'de> for NumericId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = NumericId;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("anything")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<NumericId, A::Error> {
                let mut numeric = false;
                while let Some(key) = map.next_key::<IsId>()? {
                    if key.0 {
                        numeric = map.next_value::<IsNumber>()?.0;
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(NumericId(numeric))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<NumericId, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(NumericId(false))
            }
            fn visit_bool<E>(self, _: bool) -> Result<NumericId, E> {
                Ok(NumericId(false))
            }
            fn visit_i64<E>(self, _: i64) -> Result<NumericId, E> {
                Ok(NumericId(false))
            }
            fn visit_u64<E>(self, _: u64) -> Result<NumericId, E> {
                Ok(NumericId(false))
            }
            fn visit_f64<E>(self, _: f64) -> Result<NumericId, E> {
                Ok(NumericId(false))
            }
            fn visit_str<E>(self, _: &str) -> Result<NumericId, E> {
                Ok(NumericId(false))
            }
            fn visit_unit<E>(self) -> Result<NumericId, E> {
                Ok(NumericId(false))
            }
        }
        d.deserialize_any(V)
    }
}

/// A key that is exactly `id`.
struct IsId(bool);

impl<'de> Deserialize<'de> for IsId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = IsId;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E>(self, s: &str) -> Result<IsId, E> {
                Ok(IsId(s == "id"))
            }
        }
        d.deserialize_str(V)
    }
}

/// A value that is a JSON number.
struct IsNumber(bool);

impl<'de> Deserialize<'de> for IsNumber {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = IsNumber;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("anything")
            }
            fn visit_i64<E>(self, _: i64) -> Result<IsNumber, E> {
                Ok(IsNumber(true))
            }
            fn visit_u64<E>(self, _: u64) -> Result<IsNumber, E> {
                Ok(IsNumber(true))
            }
            fn visit_f64<E>(self, _: f64) -> Result<IsNumber, E> {
                Ok(IsNumber(true))
            }
            fn visit_bool<E>(self, _: bool) -> Result<IsNumber, E> {
                Ok(IsNumber(false))
            }
            fn visit_str<E>(self, _: &str) -> Result<IsNumber, E> {
                Ok(IsNumber(false))
            }
            fn visit_unit<E>(self) -> Result<IsNumber, E> {
                Ok(IsNumber(false))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<IsNumber, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(IsNumber(false))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<IsNumber, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(IsNumber(false))
            }
        }
        d.deserialize_any(V)
    }
}
