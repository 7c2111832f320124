//! A conservative token estimate: meant to be at least the count of the
//! byte-pair encoders LLMs use (OpenAI's cl100k_base and o200k_base, checked
//! by tests/bench/format-tokens.mjs with the real encoders) for English text,
//! URLs and this crate's own format, without shipping a vocabulary.
//!
//! The text is cut the way those encoders pre-split it, then each piece is
//! priced above what one BPE token usually covers:
//! - a run of ASCII letters (split at a lower→upper case change, as in
//!   `camelCase`): one token per 4 letters, rounded up ("button" 2, real 1);
//! - a run of digits: one token per 3 digits (the encoders group digits by
//!   at most 3);
//! - every other ASCII character (punctuation, symbols): one token each
//!   (the encoders often merge `="` or `://` into one);
//! - whitespace: one space directly before a word, number or symbol is free
//!   (the encoders fold it into the next token), any other run is 1 token;
//! - every non-ASCII character: its UTF-8 length minus one, at least 1
//!   (é 1, € or 中 2, an emoji 3); byte-level BPE never needs more tokens
//!   than bytes, and common characters take far fewer.
//!
//! The estimate is additive over lines: `estimate(a + b) == estimate(a) +
//! estimate(b)` whenever `a` ends with a newline, which is how `format`
//! keeps its running total without re-counting.

pub fn estimate_tokens(s: &str) -> usize {
    let mut total = 0;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_alphabetic() {
            let mut n: usize = 1;
            let mut prev_lower = c.is_ascii_lowercase();
            while let Some(&d) = chars.peek() {
                if !d.is_ascii_alphabetic() || (prev_lower && d.is_ascii_uppercase()) {
                    break;
                }
                prev_lower = d.is_ascii_lowercase();
                n += 1;
                chars.next();
            }
            total += n.div_ceil(4);
        } else if c.is_ascii_digit() {
            let mut n: usize = 1;
            while chars.peek().is_some_and(char::is_ascii_digit) {
                n += 1;
                chars.next();
            }
            total += n.div_ceil(3);
        } else if c == ' ' && chars.peek().is_some_and(|d| !d.is_whitespace()) {
            // folded into the next piece
        } else if c.is_whitespace() {
            while chars
                .peek()
                .is_some_and(|d| d.is_whitespace() && *d != '\n')
                && c != '\n'
            {
                chars.next();
            }
            total += 1;
        } else if c.is_ascii() {
            total += 1;
        } else {
            total += (c.len_utf8() - 1).max(1);
        }
    }
    total
}

#[cfg(test)]
mod tests;
