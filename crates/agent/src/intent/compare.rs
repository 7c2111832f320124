//! A comparison of the number the page shows after a subject with the
//! number the task names: "if the Pro plan costs less than $20" (a branch)
//! and "until the price falls under $40" (a wait). Both read the same
//! words (the lexicon's comparisons); they differ only in which words are
//! not part of the subject and in how far the number may be.

use super::branch::number;
use super::lexicon::{match_at, Lexicon};
use super::tokens::Token;
use super::Condition;

/// How one kind of clause reads its comparison.
pub(super) struct Reading {
    /// Quoted words are values, never the comparison's words (waits).
    pub skip_quoted: bool,
    /// "reaches N" / "hits N" compare too: at least N (waits).
    pub reach: &'static [&'static str],
    /// The number is among the next this many words after the comparison.
    pub within: usize,
    /// Words dropped from the subject besides articles.
    pub not_subject: &'static [&'static str],
}

/// The first comparison in `toks`: `None` when there is none; `Some(None)`
/// when its words are there but no number follows, which is no condition
/// at all (never read as another kind of condition).
pub(super) fn comparison(
    toks: &[Token],
    lex: &Lexicon,
    how: &Reading,
) -> Option<Option<Condition>> {
    let ws: Vec<&str> = toks.iter().map(|t| t.lower.as_str()).collect();
    for k in 0..toks.len() {
        if how.skip_quoted && toks[k].quoted {
            continue;
        }
        let (n, less, or_equal) = match match_at(lex.comparisons, &ws[k..]) {
            Some((n, (less, or_equal))) => (n, less, or_equal),
            None if how.reach.contains(&ws[k]) => (1, false, true),
            None => continue,
        };
        let Some(value) = toks[k + n..]
            .iter()
            .take(how.within)
            .find_map(|t| number(&t.raw))
        else {
            return Some(None);
        };
        let subject: Vec<&str> = toks[..k]
            .iter()
            .filter(|t| {
                let w = t.lower.as_str();
                !lex.articles.contains(&w) && !how.not_subject.contains(&w)
            })
            .map(|t| t.raw.as_str())
            .collect();
        return Some(Some(Condition::Compare {
            subject: subject.join(" "),
            less,
            or_equal,
            value,
        }));
    }
    None
}
