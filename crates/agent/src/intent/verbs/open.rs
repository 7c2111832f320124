//! expand / open X (a section, menu, tab, tree node), and switch between /
//! browse X (go through them until the next step's target shows).

use super::Clause;
use crate::intent::object::target_of;
use crate::intent::{Relation, Step, Verb};

pub(super) fn parse(c: &Clause<'_>, verb: Verb) -> Vec<Step> {
    // "Open a support ticket with the subject X…": something to create,
    // filled with values and sent.
    if let Some(k) = c.rest.iter().position(|t| !t.quoted && t.lower == "with") {
        let vals = crate::intent::values::values(&c.rest[k..], c.lex, false, true);
        if !vals.is_empty() {
            return vec![
                Step::Fill {
                    values: vals,
                    field: crate::intent::Target::default(),
                },
                Step::Submit {
                    phrase: c.phrase.join(" "),
                    button: None,
                },
            ];
        }
    }
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
