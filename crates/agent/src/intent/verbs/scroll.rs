//! scroll (down / up), "scroll to the bottom of the textarea": the page, or
//! within the element named.

use super::Clause;
use crate::intent::object::target_of;
use crate::intent::{Ordinal, Step};

pub(super) fn parse(c: &Clause<'_>) -> Vec<Step> {
    let words: Vec<&str> = c.rest.iter().map(|t| t.lower.as_str()).collect();
    let has = |w: &str| c.phrase.contains(&w) || words.contains(&w);
    let up = has("up") || has("top");
    let to_end = has("bottom") || has("top") || has("end") || has("all");
    let mut target = target_of(&c.object, c.rest.len());
    // "to the bottom": the bottom is where, not what.
    if matches!(target.ordinal, Some(Ordinal::Last | Ordinal::Nth(1))) && to_end {
        target.ordinal = None;
    }
    if target.text.as_deref().is_some_and(|t| {
        let l = t.to_lowercase();
        l.split(' ').all(|w| {
            matches!(
                w,
                "to" | "bottom"
                    | "top"
                    | "end"
                    | "of"
                    | "down"
                    | "up"
                    | "page"
                    | "all"
                    | "way"
                    | "the"
            )
        })
    }) {
        target.text = None;
    }
    // Only a quote or a role names what scrolls; other words are the direction.
    if target.role.is_none() {
        target.text = c.object.quoted.first().map(|(_, q)| q.clone());
    }
    vec![Step::Scroll { up, target, to_end }]
}
