//! The task's clauses as words, for the completion check
//! (`planner/leftover.rs`): each clause the grammar grouped
//! (`tokens::clauses`, after the surface rewrites), its words as written,
//! with the ones that carry no value or action of their own marked — the
//! verb phrase it starts with, fillers, joining words, articles. What is
//! left of a clause once the steps' own words are taken away is what the
//! task language may have dropped.

use super::lexicon::{match_at, ENGLISH};
use super::{surface, tokens, verbs, without_inner_courtesy};

/// A word of a clause.
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    /// As written (a quote's whole text for a quoted token).
    pub raw: String,
    pub quoted: bool,
    /// Says nothing to do or to set by itself (verb, filler, glue).
    pub glue: bool,
    /// A comma, colon or sentence end followed it: a part ends here.
    pub pause: bool,
}

/// Words that join or frame values and clauses, whatever the clause says.
const GLUE: &[&str] = &[
    "with", "using", "and", "then", "the", "a", "an", "my", "our", "your", "their", "his", "her",
    "its", "of", "for", "to", "me", "is", "are", "am", "as", "please", "also", "use", "set", "i",
    "i'd", "i'm", "we", "you", "it", "them", "they", "this", "these", "that", "those", "would",
    "like", "want", "will", "could", "can", "should", "be", "in", "on", "at", "by", "so", "thanks",
    "thank", "too", "just", "now", "all", "there", "here", "do", "get", "make", "sure",
];

/// The clauses of `task`, word by word.
pub fn clauses(task: &str) -> Vec<Vec<Word>> {
    let lex = &ENGLISH;
    let toks = surface::normalize(without_inner_courtesy(tokens::tokenize(task)), lex);
    tokens::clauses(&toks, lex)
        .into_iter()
        .map(|c| {
            let verb = verbs::verb_phrase(&c, lex).map(|(i, n, _)| i..i + n);
            c.iter()
                .enumerate()
                .map(|(k, t)| {
                    let glue = !t.quoted
                        && (verb.as_ref().is_some_and(|r| r.contains(&k))
                            || lex.fillers.contains(&t.lower.as_str())
                            || lex.and.contains(&t.lower.as_str())
                            || lex.then.contains(&t.lower.as_str())
                            || lex.articles.contains(&t.lower.as_str())
                            || GLUE.contains(&t.lower.as_str())
                            || match_at(lex.verbs, &[t.lower.as_str()]).is_some() && k == 0);
                    Word {
                        raw: t.raw.clone(),
                        quoted: t.quoted,
                        glue,
                        pause: t.comma || t.colon || t.stop,
                    }
                })
                .collect()
        })
        .collect()
}

/// A named date without its year ("December 3"): its month and day, for
/// matching it against the date a step carries ("12/03/2026", after a
/// range lent it the year of its end, `intent/range.rs`).
pub fn month_day(month: &str, day: &str) -> Option<(u32, u32)> {
    let m = super::tokens::month_number(&month.to_lowercase())?;
    Some((m, super::tokens::day_number(&day.to_lowercase())?))
}
