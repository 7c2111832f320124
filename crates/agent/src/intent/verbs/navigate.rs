//! go to / visit URL, or "go to the pricing page": the link that names it.

use super::Clause;
use crate::intent::object::target_of;
use crate::intent::{Step, Touch};
use crate::text::urls;

pub(super) fn parse(c: &Clause<'_>) -> Vec<Step> {
    let joined: Vec<&str> = c.rest.iter().map(|t| t.raw.as_str()).collect();
    if let Some(url) = urls(&joined.join(" ")).into_iter().next() {
        return vec![Step::Navigate { url }];
    }
    let mut target = target_of(&c.object, c.rest.len());
    if target
        .text
        .as_deref()
        .is_some_and(|t| t.eq_ignore_ascii_case("page"))
    {
        target.text = None;
    }
    if let Some(t) = &target.text {
        let cut = t.strip_suffix(" page").unwrap_or(t).to_string();
        target.text = Some(cut);
    }
    vec![Step::Click {
        target,
        touch: Touch::Click,
    }]
}
