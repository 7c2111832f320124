//! Steps on a row or item of a list, said in two clauses: "open the
//! actions of Lara Voss and choose Archive" (the row's menu, then its
//! item), "delete project old-landing and confirm" (the row's action, then
//! the yes of the question it asks). Each is one step: the click on the
//! row's action, which opens the row's menu when the action is behind it
//! and answers the page's "Are you sure?" itself (planner `steps/click.rs`,
//! `confirmation`).

use super::{Choice, Relation, Role, Step, Target, Touch};

/// The steps with each row's menu folded into the item chosen from it, and
/// a bare "confirm" after a row's action dropped (the action confirms).
pub(super) fn fold(steps: Vec<Step>) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::with_capacity(steps.len());
    for s in steps {
        let menu_of = match out.last() {
            Some(Step::Open { target, .. }) => row_menu(target),
            _ => None,
        };
        if let (Some(thing), Some(item)) = (menu_of, chosen(&s)) {
            out.pop();
            out.push(Step::Click {
                target: Target {
                    text: Some(item),
                    relation: Some((Relation::Of, thing)),
                    ..Target::default()
                },
                touch: Touch::Click,
            });
            continue;
        }
        let row_action = matches!(
            out.last(),
            Some(Step::Click { target, touch: Touch::Click })
                if matches!(target.relation, Some((Relation::Of, _))) && target.text.is_some()
        );
        if row_action && bare_confirm(&s) {
            continue;
        }
        out.push(s);
    }
    out
}

/// The thing whose menu an open step names ("the actions of X").
fn row_menu(t: &Target) -> Option<String> {
    match (&t.relation, t.role, &t.text) {
        (Some((Relation::Of, thing)), Some(Role::Menu), None) if !t.all => Some(thing.clone()),
        _ => None,
    }
}

/// The one item a step picks by its words alone: "choose Archive",
/// "click Duplicate".
fn chosen(s: &Step) -> Option<String> {
    match s {
        Step::Choose {
            on: true,
            choice: Some(Choice::Exactly(items)),
            target,
            within: None,
            ..
        } if items.len() == 1 && target.is_empty() && target.relation.is_none() => {
            Some(items[0].clone())
        }
        Step::Click {
            target,
            touch: Touch::Click,
        } if target.relation.is_none() && target.role.is_none() && target.ordinal.is_none() => {
            target.text.clone()
        }
        _ => None,
    }
}

/// "and confirm", "then confirm it": a submit that names no control and
/// no values of its own.
fn bare_confirm(s: &Step) -> bool {
    matches!(s, Step::Submit { phrase, button: None }
        if phrase.split_whitespace().next() == Some("confirm"))
}
