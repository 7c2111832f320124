//! click / press / tap / hover / focus X: the element named, by its text,
//! role, position and relation ("the 2nd link", "the button next to
//! Email", "Delete for Q3 plan").

use super::Clause;
use crate::intent::object::{name_of_thing, target_of};
use crate::intent::tokens::Token;
use crate::intent::{Relation, Role, Step, Target, Touch, Verb};

pub(super) fn parse(c: &Clause<'_>, verb: Verb) -> Vec<Step> {
    let mut target = target_of(&c.object, c.rest.len());
    let touch = match verb {
        Verb::Hover => Touch::Hover,
        Verb::Focus => Touch::Focus,
        _ => Touch::Click,
    };
    if touch == Touch::Focus && target.role.is_none() {
        target.role = Some(Role::Field);
    }
    // "forward that email to Theresita", "reply to them with the text X":
    // the control, the recipient or the text, then send.
    // "forward Effie's email to Bari", "delete the email Neille sent me":
    // the message is found and opened first, then acted on.
    let author = matches!(
        c.phrase[0],
        "forward" | "reply" | "respond" | "delete" | "remove" | "trash" | "star"
    )
    .then(|| super::message::author(c.rest))
    .flatten();
    if matches!(c.phrase[0], "forward" | "reply" | "respond") {
        if let Some(mut steps) = message_flow(c) {
            if let Some(a) = author {
                steps.insert(0, super::message::find_by(a));
            }
            return steps;
        }
    }
    if let Some(a) = author {
        let control = Target {
            text: Some(capitalised(c.phrase[0])),
            ..Target::default()
        };
        return vec![
            super::message::find_by(a),
            Step::Click {
                target: control,
                touch,
            },
        ];
    }
    // "export the report as "CSV"", "download it as PDF": the form it is
    // wanted in (an option of the page's format list), then the control
    // the verb names.
    if matches!(c.phrase[0], "export" | "download" | "print") {
        if let Some(steps) = in_format(c) {
            return steps;
        }
    }
    // "press Enter": a key, not a button.
    if c.phrase[0] == "press" && c.object.quoted.is_empty() && target.role.is_none() {
        if let Some(t) = &target.text {
            if super::press::key_name(t).is_some() {
                return super::press::parse(c);
            }
        }
    }
    // "close the dialog": its close control.
    if matches!(c.phrase[0], "close" | "dismiss") && target.text.is_none() {
        target.text = Some("Close".into());
        target.role = None;
    }
    // "remove X", "delete X", "add X to the cart", "star X": the control
    // that does it for X ("Remove" beside X): the verb names the control.
    // "remove X from my cart": the cart is where X is, not whose.
    if target.relation.as_ref().is_some_and(|(r, w)| {
        *r == Relation::Of && {
            let w = w.to_lowercase();
            ["cart", "basket", "bag", "list", "order"]
                .iter()
                .any(|c| w.ends_with(c))
        }
    }) {
        target.relation = None;
    }
    if (matches!(
        c.phrase[0],
        "remove"
            | "delete"
            | "add"
            | "star"
            | "forward"
            | "download"
            | "track"
            | "archive"
            | "export"
    ) || closes_an_item(c.phrase[0], target.text.as_deref(), c.rest))
        && target.relation.is_none()
        && target.role.is_none()
    {
        // "add to order", "add to cart": the control says it all.
        if c.phrase[0] == "add" && c.rest.first().is_some_and(|t| t.lower == "to") {
            let words: Vec<&str> = c.rest.iter().map(|t| t.raw.as_str()).collect();
            target.text = Some(format!("Add {}", words.join(" ").replace("the ", "")));
            return vec![Step::Click { target, touch }];
        }
        if let Some(x) = target.text.take() {
            let control = match c.phrase[0] {
                "add"
                    if x.to_lowercase().contains("cart")
                        || c.rest.iter().any(|t| t.lower == "cart") =>
                {
                    "Add to cart".to_string()
                }
                w => capitalised(w),
            };
            // "delete project old-landing": the row is found by its name,
            // not by its kind's words (`name_of_thing`).
            let x = name_of_thing(&strip_cart(&x));
            target.text = Some(control);
            if !x.is_empty() {
                target.relation = Some((Relation::Of, x));
            }
        } else {
            target.text = Some(capitalised(c.phrase[0]));
        }
    }
    vec![Step::Click { target, touch }]
}

/// "close ticket 4821", "close the incident about the printer": an item of
/// a list closed by its own "Close" (of the row or card that names it), as
/// "archive X" is; but what covers the page ("close the cookie banner",
/// "the chat window") is closed by clicking it or its own close control, as
/// before.
fn closes_an_item(verb: &str, thing: Option<&str>, rest: &[Token]) -> bool {
    const OVERLAYS: &[&str] = &[
        "banner",
        "message",
        "notification",
        "popup",
        "pop-up",
        "window",
        "panel",
        "sidebar",
        "menu",
        "toast",
        "alert",
        "tab",
        "overlay",
        "notice",
        "bar",
        "drawer",
        "dialog",
        "modal",
        "box",
        "ad",
        "advert",
        "tooltip",
        "tip",
        "form",
        "page",
        "it",
        "this",
        "that",
    ];
    verb == "close"
        && thing.is_some_and(|t| !t.trim().is_empty() && !t.eq_ignore_ascii_case("close"))
        && !rest
            .iter()
            .any(|w| !w.quoted && OVERLAYS.contains(&w.lower.as_str()))
}

fn capitalised(w: &str) -> String {
    let mut c = w.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// "Travel tumbler to the cart" → "Travel tumbler".
fn strip_cart(x: &str) -> String {
    let l = x.to_lowercase();
    for tail in [
        " to the cart",
        " to cart",
        " to my cart",
        " to the basket",
        " from my cart",
        " from the cart",
    ] {
        if let Some(p) = l.find(tail) {
            return x[..p].trim().to_string();
        }
    }
    x.trim().to_string()
}

/// Forward to someone / reply with a text: click Forward or Reply, enter the
/// recipient or the text, send.
fn message_flow(c: &Clause<'_>) -> Option<Vec<Step>> {
    message_flow_as(c, c.phrase[0] == "forward")
}

/// [`message_flow`], forwarding or replying as told ("send it on to
/// Britteny" forwards).
pub(super) fn message_flow_as(c: &Clause<'_>, forward: bool) -> Option<Vec<Step>> {
    use crate::intent::Value;
    use crate::task::FieldKind;
    let control = if forward { "Forward" } else { "Reply" };
    let words: Vec<&str> = c.rest.iter().map(|t| t.lower.as_str()).collect();
    let value = if control == "Forward" {
        // The words after the last "to": the recipient.
        let k = words.iter().rposition(|w| *w == "to")?;
        let who: Vec<&str> = c.rest[k + 1..].iter().map(|t| t.raw.as_str()).collect();
        (!who.is_empty()).then(|| Value::literal(who.join(" "), FieldKind::Other, "to"))?
    } else {
        // The quoted text, or the words after "with the text" / "saying".
        let q = c
            .rest
            .iter()
            .find(|t| t.quoted)
            .map(|t| t.raw.clone())
            .or_else(|| {
                let k = words
                    .iter()
                    .position(|w| matches!(*w, "text" | "saying" | "message"))?;
                let t: Vec<&str> = c.rest[k + 1..].iter().map(|t| t.raw.as_str()).collect();
                (!t.is_empty()).then(|| t.join(" "))
            })?;
        Value::literal(q, FieldKind::Message, "message")
    };
    Some(vec![
        Step::Click {
            target: Target {
                text: Some(control.into()),
                ..Target::default()
            },
            touch: Touch::Click,
        },
        Step::Fill {
            values: vec![value],
            field: Target::default(),
        },
        Step::Submit {
            phrase: "send".into(),
            button: None,
        },
    ])
}

/// "export the report as "CSV" (and …)": [the value "CSV" for the field
/// that offers it, a click on "Export"]; None without "as" and a value of
/// one word or a quote right after it.
fn in_format(c: &Clause<'_>) -> Option<Vec<Step>> {
    use crate::intent::{Target, Value};
    use crate::task::FieldKind;
    let k = c.rest.iter().rposition(|t| !t.quoted && t.lower == "as")?;
    let rest = &c.rest[k + 1..];
    let v = match rest {
        [a, v] if !a.quoted && matches!(a.lower.as_str(), "a" | "an") => v,
        [v] => v,
        _ => return None,
    };
    let format = v.raw.trim_end_matches(" file").to_string();
    Some(vec![
        Step::Fill {
            values: vec![Value::literal(format, FieldKind::Other, "")],
            field: Target::default(),
        },
        Step::Click {
            target: Target {
                text: Some(capitalised(c.phrase[0])),
                ..Target::default()
            },
            touch: Touch::Click,
        },
    ])
}
