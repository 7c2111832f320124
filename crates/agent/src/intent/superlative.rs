//! Superlatives said of a property ("the most seats left", "the highest
//! guest rating", "the best-rated hotel", "whichever clinic is closest"):
//! which extreme, and that such words choose among things shown on the
//! page rather than give a field its value.

use super::lexicon::{match_at, Lexicon};
use super::Extreme;

/// Words that say the property compared is a rating.
const RATING: &[&str] = &[
    "rating", "ratings", "rated", "reviewed", "reviews", "score", "scores", "stars",
];

/// The superlative starting at `i` of `ws` (lower-case words): its length
/// and extreme. "at most" is a bound, not a superlative; "the highest /
/// best / top … rating" (up to three words later) compares ratings.
pub(super) fn extreme_at(lex: &Lexicon, ws: &[&str], i: usize) -> Option<(usize, Extreme)> {
    let (n, x) = match_at(lex.extremes, ws.get(i..)?)?;
    if ws[i] == "most" && n == 1 && i > 0 && ws[i - 1] == "at" {
        return None;
    }
    let rated = ws[i + n..].iter().take(3).any(|w| RATING.contains(w));
    Some((
        n,
        if x == Extreme::Most && rated {
            Extreme::Rated
        } else {
            x
        },
    ))
}

/// Does a phrase pick one thing by a superlative ("the closest
/// dermatologist", "the most seats left")? Such a phrase is no value to
/// type: the planner chooses by it among the page's cards.
pub(super) fn chooses(lex: &Lexicon, ws: &[&str]) -> bool {
    (0..ws.len()).any(|i| extreme_at(lex, ws, i).is_some())
}
