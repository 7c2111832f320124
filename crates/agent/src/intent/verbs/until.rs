//! A wait for a value that changes over time ("until the price falls under
//! $40", "when NVLT is below 40 dollars", "until the counter reaches 10"):
//! a comparison of the number the page shows after the subject with the
//! number the task names. Read before the text conditions of `wait.rs`,
//! so the words of a comparison are never waited for as text.

use crate::intent::branch::number;
use crate::intent::lexicon::{match_at, Lexicon};
use crate::intent::tokens::Token;
use crate::intent::Condition;

/// Verbs of a value changing, dropped from the subject ("the price drops").
const CHANGE: &[&str] = &[
    "drops", "drop", "falls", "fall", "goes", "go", "gets", "get", "is", "are", "becomes",
    "become", "climbs", "climb", "rises", "rise", "reaches", "reach", "hits", "hit", "until",
    "till", "when", "once", "it", "s", "its", "it's", "only", "but",
];
/// "reaches N", "hits N": the value is at least N.
const REACH: &[&str] = &["reaches", "reach", "hits", "hit"];

/// The comparison in `toks`, when there is one followed by a number.
pub(crate) fn compare(toks: &[Token], lex: &Lexicon) -> Option<Condition> {
    let ws: Vec<&str> = toks.iter().map(|t| t.lower.as_str()).collect();
    for k in 0..toks.len() {
        if toks[k].quoted {
            continue;
        }
        let (n, less, or_equal) = match match_at(lex.comparisons, &ws[k..]) {
            Some((n, (less, or_equal))) => (n, less, or_equal),
            None if REACH.contains(&ws[k]) => (1, false, true),
            None => continue,
        };
        let value = toks[k + n..].iter().take(3).find_map(|t| number(&t.raw))?;
        let subject: Vec<&str> = toks[..k]
            .iter()
            .filter(|t| {
                let w = t.lower.as_str();
                !lex.articles.contains(&w) && !CHANGE.contains(&w)
            })
            .map(|t| t.raw.as_str())
            .collect();
        return Some(Condition::Compare {
            subject: subject.join(" "),
            less,
            or_equal,
            value,
        });
    }
    None
}
