//! find / locate / read / tell me X: information to find on the page and
//! answer with.

use super::Clause;
use crate::intent::object::target_of;
use crate::intent::Step;

pub(super) fn parse(c: &Clause<'_>) -> Vec<Step> {
    if let Some(steps) = super::lookup::with_values(c) {
        return steps;
    }
    let mut target = target_of(&c.object, c.rest.len());
    let words: Vec<&str> = c.rest.iter().map(|t| t.raw.as_str()).collect();
    let mut about = None;
    if !words.is_empty() && c.object.quoted.is_empty() {
        about = Some(words.join(" "));
        target.text = None;
    }
    vec![Step::Find { target, about }]
}
