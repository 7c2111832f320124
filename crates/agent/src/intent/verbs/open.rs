//! expand / open X (a section, menu, tab, tree node), and switch between /
//! browse X (go through them until the next step's target shows).

use super::Clause;
use crate::intent::object::target_of;
use crate::intent::{Relation, Step, Verb};

pub(super) fn parse(c: &Clause<'_>, verb: Verb) -> Vec<Step> {
    let mut target = target_of(&c.object, c.rest.len());
    // "the section below": where on the page, not below something named.
    if target
        .relation
        .as_ref()
        .is_some_and(|(r, _)| *r == Relation::Below)
        && target.text.is_none()
    {
        target.relation = None;
    }
    vec![Step::Open {
        target,
        explore: verb == Verb::Explore,
    }]
}
