//! log in / sign up / submit / send / subscribe / book / pay … (with
//! values): the values into their fields, then the form's submit control.

use super::Clause;
use crate::intent::values::values;
use crate::intent::{Step, Target, ValueSource};

pub(super) fn parse(c: &Clause<'_>) -> Vec<Step> {
    let login = matches!(c.phrase[0], "log" | "login" | "sign" | "signin");
    let vals = values(c.rest, c.lex, login, true);
    let mut out = Vec::new();
    let button = c
        .object
        .quoted
        .iter()
        .find(|(_, q)| {
            !vals
                .iter()
                .any(|v| matches!(&v.source, ValueSource::Literal(x) if x == q))
        })
        .map(|(_, q)| q.clone());
    if !vals.is_empty() {
        out.push(Step::Fill {
            values: vals,
            field: Target::default(),
        });
    }
    out.push(Step::Submit {
        phrase: c.phrase.join(" "),
        button,
    });
    out
}
