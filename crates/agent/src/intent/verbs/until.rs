//! A wait for a value that changes over time ("until the price falls under
//! $40", "when NVLT is below 40 dollars", "until the counter reaches 10"):
//! a comparison of the number the page shows after the subject with the
//! number the task names. Read before the text conditions of `wait.rs`,
//! so the words of a comparison are never waited for as text.

use crate::intent::compare::{comparison, Reading};
use crate::intent::lexicon::Lexicon;
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
    comparison(toks, lex, &WAIT).flatten()
}

/// A wait's comparison: quoted words are values, "reaches N" counts, the
/// number comes within three words.
const WAIT: Reading = Reading {
    skip_quoted: true,
    reach: REACH,
    within: 3,
    not_subject: CHANGE,
};
