//! The careful-mode security gate (RunMode of docs/contracts/run-api.md §10 "careful": "Security
//! gate enabled"). Before a click / type / press that pays, buys, transfers,
//! deletes, sends, submits an order, changes credentials or enters card or
//! password data, the run asks the user. Judged from the element's text,
//! role and input type, the rest of the form (card / password fields on the
//! page) and the URL.

use crate::page::{Page, Role};
use crate::text::{stem, words};
use crate::types::Tool;
use sentience_snapshot_core::Observed;

#[derive(Debug, Clone, PartialEq)]
pub struct GateHit {
    /// ask_user `question` (docs/contracts/run-api.md §10), e.g. "⚠️ Security
    /// check: Attempting to click 'Pay Now'. Proceed?"
    pub question: String,
    pub reason: String,
}

/// Words (stemmed) whose click commits money, data loss or a message.
const RISKY_CLICK: &[(&str, &str)] = &[
    ("pay", "pays"),
    ("payment", "pays"),
    ("paynow", "pays"),
    ("buy", "buys"),
    ("purchase", "buys"),
    ("checkout", "buys"),
    ("placeorder", "submits an order"),
    ("donate", "pays"),
    ("subscribe", "pays"),
    ("transfer", "transfers money"),
    ("wire", "transfers money"),
    ("withdraw", "transfers money"),
    ("delete", "deletes"),
    ("remove", "deletes"),
    ("erase", "deletes"),
    ("destroy", "deletes"),
    ("deactivate", "deletes"),
    ("terminate", "deletes"),
    ("send", "sends"),
];

/// Labels that submit whatever form they sit in.
const SUBMIT_WORDS: &[&str] = &[
    "submit", "confirm", "continue", "complete", "proceed", "ok", "yes", "save", "update", "apply",
    "finish", "done", "next",
];

const PAYMENT_URL_WORDS: &[&str] = &[
    "checkout", "payment", "pay", "billing", "order", "purchase", "transfer", "cart",
];

fn stems(s: &str) -> Vec<String> {
    words(s).iter().map(|w| stem(w)).collect()
}

fn is_card_field(e: &Observed) -> bool {
    let d = stems(&e.descriptors()).join(" ");
    [
        "card",
        "cvv",
        "cvc",
        "csc",
        "expiry",
        "expiration",
        "iban",
        "cc number",
        "cc num",
    ]
    .iter()
    .any(|k| d.contains(k))
        || e.facts.name.starts_with("cc-")
}

fn is_password_field(e: &Observed) -> bool {
    e.facts.input_type == "password" || stems(&e.descriptors()).iter().any(|w| w == "password")
}

fn page_has(page: &Page, pred: fn(&Observed) -> bool) -> bool {
    page.elements.iter().any(|e| e.is_text_entry() && pred(e))
}

/// A page that changes credentials: a "new password" field, or two password
/// fields (new + confirm), or a URL about passwords / security settings.
fn changes_credentials(page: &Page) -> bool {
    let pw = page
        .elements
        .iter()
        .filter(|e| e.is_text_entry() && is_password_field(e))
        .collect::<Vec<_>>();
    pw.len() >= 2
        || pw
            .iter()
            .any(|e| stems(&e.descriptors()).iter().any(|w| w == "new"))
        || [
            "change-password",
            "reset-password",
            "change_password",
            "credentials",
        ]
        .iter()
        .any(|k| page.url.to_lowercase().contains(k))
}

fn payment_url(page: &Page) -> bool {
    let url_words = stems(&page.url);
    url_words
        .iter()
        .any(|w| PAYMENT_URL_WORDS.contains(&w.as_str()))
}

fn display(e: &Observed) -> String {
    let l = e.label();
    let l = if l.is_empty() {
        e.element.id.to_string()
    } else {
        l.to_string()
    };
    crate::text::truncate(&l, 60)
}

/// Why submitting this element's form is risky, if it is.
fn risky_submit(e: &Observed, page: &Page) -> Option<&'static str> {
    let label = stems(&format!(
        "{} {} {}",
        e.label(),
        e.facts.aria_label,
        e.facts.value
    ));
    let folded = crate::text::fold_phrases(&label.join(" "));
    // A "Checkout" link only leads to the checkout page; the payment is
    // gated there, on the button that submits it.
    let is_link = e.role() == Role::Link || e.facts.tag == "a";
    for w in folded.split(' ') {
        if is_link && w == "checkout" {
            continue;
        }
        if let Some((_, why)) = RISKY_CLICK.iter().find(|(k, _)| *k == w) {
            return Some(why);
        }
    }
    if [
        "change password",
        "reset password",
        "update password",
        "change email",
    ]
    .iter()
    .any(|p| folded.contains(p))
    {
        return Some("changes credentials");
    }
    if [
        "submit order",
        "confirm order",
        "complete order",
        "submit payment",
    ]
    .iter()
    .any(|p| folded.contains(p))
    {
        return Some("submits an order");
    }
    let submits =
        e.facts.input_type == "submit" || label.iter().any(|w| SUBMIT_WORDS.contains(&w.as_str()));
    if submits {
        if page_has(page, is_card_field) {
            return Some("submits card data");
        }
        if changes_credentials(page) {
            return Some("changes credentials");
        }
        if payment_url(page) {
            return Some("submits an order");
        }
    }
    None
}

/// The gate: Some(question) when this tool needs the user's approval.
pub fn check(tool: &Tool, page: &Page) -> Option<GateHit> {
    let id = tool.element_id();
    let el = id.as_deref().and_then(|id| page.find(id));
    match tool {
        Tool::Click { .. } => {
            let e = el?;
            let why = risky_submit(e, page)?;
            Some(GateHit {
                question: format!(
                    "⚠️ Security check: Attempting to click '{}'. Proceed?",
                    display(e)
                ),
                reason: why.to_string(),
            })
        }
        Tool::Type { .. } => {
            let e = el?;
            let what = if is_card_field(e) {
                "card data"
            } else if is_password_field(e) {
                "a password"
            } else {
                return None;
            };
            Some(GateHit {
                question: format!(
                    "⚠️ Security check: Attempting to type {what} into '{}'. Proceed?",
                    display(e)
                ),
                reason: format!("enters {what}"),
            })
        }
        Tool::Press { key, .. } => {
            let key = key.to_lowercase();
            if key != "enter" {
                return None;
            }
            let risky = page_has(page, is_card_field)
                || changes_credentials(page)
                || (payment_url(page)
                    && el.is_some_and(|e| !e.is_text_entry() || is_card_field(e)));
            if !risky {
                return None;
            }
            let target = el.map(display).unwrap_or_else(|| "the form".into());
            Some(GateHit {
                question: format!(
                    "⚠️ Security check: Attempting to press Enter to submit '{target}'. Proceed?"
                ),
                reason: "submits a payment or credential form".into(),
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;
