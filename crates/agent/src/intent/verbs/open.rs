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
    if let Some(target) = menu_of_thing(c) {
        return vec![Step::Open {
            target,
            explore: false,
        }];
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

/// "the actions of Lara Voss", "the options for invoice-77", "the row menu
/// of Q3 plan": the menu that belongs with a row or item (its "⋯" / "More
/// actions" button), found by the thing's name — a menu of it, not a menu
/// named with its words. The step after it (the item chosen) becomes that
/// row's action (`rows::fold`).
fn menu_of_thing(c: &Clause<'_>) -> Option<crate::intent::Target> {
    let toks: Vec<&crate::intent::tokens::Token> = c
        .rest
        .iter()
        .skip_while(|t| !t.quoted && c.lex.articles.contains(&t.lower.as_str()))
        .collect();
    let of = toks
        .iter()
        .position(|t| !t.quoted && matches!(t.lower.as_str(), "of" | "for"))?;
    let menu = &toks[..of];
    let menu_word = |w: &str| matches!(w, "actions" | "options" | "menu");
    let plain = |t: &&crate::intent::tokens::Token| {
        !t.quoted
            && !t.comma
            && t.lower
                .chars()
                .all(|ch| ch.is_ascii_lowercase() || ch == '-')
    };
    if menu.is_empty()
        || menu.len() > 2
        || !menu.iter().all(plain)
        || !menu.last().is_some_and(|t| menu_word(&t.lower))
    {
        return None;
    }
    let thing: Vec<&str> = toks[of + 1..]
        .iter()
        .filter(|t| t.quoted || !c.lex.articles.contains(&t.lower.as_str()))
        .map(|t| t.raw.as_str())
        .collect();
    if thing.is_empty() {
        return None;
    }
    Some(crate::intent::Target {
        role: Some(crate::intent::Role::Menu),
        relation: Some((
            Relation::Of,
            crate::intent::object::name_of_thing(&thing.join(" ")),
        )),
        ..crate::intent::Target::default()
    })
}
