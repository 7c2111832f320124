//! "find my trip with confirmation code X and last name Y", "look up the
//! booking with reference R and surname S": a lookup form, not a search
//! term — the values after "with" into the fields they name, then the form
//! sent (whatever its button says). Only when every part after "with" is a
//! field named with its value; otherwise the verb reads the clause as before.

use super::Clause;
use crate::intent::values::values;
use crate::intent::{Step, Target, ValueSource};

pub(super) fn with_values(c: &Clause<'_>) -> Option<Vec<Step>> {
    let w = c.rest.iter().position(|t| !t.quoted && t.lower == "with")?;
    let vals = values(&c.rest[w + 1..], c.lex, false, true);
    let named = |v: &crate::intent::Value| {
        !v.label.is_empty() && matches!(v.source, ValueSource::Literal(_))
    };
    if vals.len() < 2 || !vals.iter().all(named) {
        return None;
    }
    Some(vec![
        Step::Fill {
            values: vals,
            field: Target::default(),
        },
        Step::Submit {
            phrase: c.phrase.join(" "),
            button: None,
        },
    ])
}
