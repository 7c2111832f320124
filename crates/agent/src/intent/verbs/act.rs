//! Acting on one thing by the control its row or card offers: "return
//! "Dune"", "renew the book Dune", "refill Lisinopril", "cancel my Pro
//! subscription" — the control the verb names ("Return", "Renew",
//! "Request refill", "Cancel subscription") of the row that names the
//! thing (`Relation::Of`), as "remove X" / "revoke X" already read. Only
//! the bare construct, the verb and its thing: with values after it
//! ("renew permit X for plate Y") the clause is a form to fill, read as
//! before.

use super::property::thing_named;
use crate::intent::lexicon::{match_at, Lexicon};
use crate::intent::tokens::{lowers, Token};
use crate::intent::{Relation, Step, Target, Touch};

/// The click of a clause "<act verb> <thing>", after its leading fillers;
/// None when the clause is not one.
pub(super) fn whole(c: &[Token], lex: &Lexicon) -> Option<Step> {
    let ws = lowers(c);
    let start = super::after_fillers(c, &ws, lex)?;
    let (n, control) = match_at(lex.row_acts, &ws[start..])?;
    let rest = &c[start + n..];
    // Nothing but the thing: no value, place or time after it, one quote
    // at most, no number but inside its name.
    let joined = rest.iter().enumerate().any(|(k, t)| {
        !t.quoted && (lex.value_joins.contains(&t.lower.as_str()) || t.comma && k + 1 < rest.len())
    });
    if rest.is_empty() || joined || rest.iter().filter(|t| t.quoted).count() > 1 {
        return None;
    }
    let thing = thing_named(rest, lex)?;
    Some(Step::Click {
        target: Target {
            text: Some(control.to_string()),
            relation: Some((Relation::Of, thing)),
            ..Target::default()
        },
        touch: Touch::Click,
    })
}
