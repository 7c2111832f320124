//! Words of an instruction (quoted strings kept whole, case kept for values)
//! and their grouping into clauses, one per step: "A, then B", "A and B"
//! when B starts with a verb, sentences, "use X to B".

use super::lexicon::{match_at, Lexicon};

#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    /// As written, trailing punctuation removed.
    pub raw: String,
    /// Lowercase `raw` (for quoted tokens too).
    pub lower: String,
    pub quoted: bool,
    /// A comma followed it.
    pub comma: bool,
    /// A colon followed it ("password: x").
    pub colon: bool,
    /// The sentence ended after it (. ! ? ;).
    pub stop: bool,
    /// The punctuation removed from its end, as written ("." of "Monday.",
    /// "!" of "Tr4il-mix!"): a value may own it.
    pub mark: String,
    /// The words as written that a surface rewrite replaced, on the first
    /// word of what replaced them ("stop" on the "turn" of "turn off"):
    /// a step may fall back to them when the page has no target of the
    /// kind the rewrite assumed (`Step::Choose::said`).
    pub said: Vec<String>,
}

impl Token {
    pub(super) fn word(raw: &str, comma: bool, colon: bool, stop: bool) -> Token {
        Token {
            raw: raw.to_string(),
            lower: raw.to_lowercase(),
            quoted: false,
            comma,
            colon,
            stop,
            mark: String::new(),
            said: Vec::new(),
        }
    }
}

fn closing(c: char) -> Option<char> {
    match c {
        '"' => Some('"'),
        '“' => Some('”'),
        '„' => Some('“'),
        '«' => Some('»'),
        '‘' => Some('’'),
        '\'' => Some('\''),
        _ => None,
    }
}

/// Split into tokens. A quote opens only at the start of a word (so the
/// apostrophe of "don't" or "Bob's" is not a quote) and must close.
pub fn tokenize(s: &str) -> Vec<Token> {
    let chars: Vec<char> = s.chars().collect();
    let mut out: Vec<Token> = Vec::new();
    let mut i = 0;
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<Token>| {
        if word.is_empty() {
            return;
        }
        let w = std::mem::take(word);
        let trimmed = w.trim_end_matches([',', '.', ';', ':', '!', '?', ')']);
        let tail = &w[trimmed.len()..];
        let trimmed = trimmed.trim_start_matches('(');
        // A value like "ut." keeps its period only when quoted; numbers like
        // "3.5" keep inner dots since only the tail is trimmed.
        let comma = tail.contains(',');
        let colon = tail.contains(':');
        let stop = tail.contains(['.', '!', '?', ';']);
        if trimmed.is_empty() {
            if let Some(last) = out.last_mut() {
                last.comma |= comma;
                last.colon |= colon;
                last.stop |= stop;
            }
        } else {
            let mut t = Token::word(trimmed, comma, colon, stop);
            t.mark = tail.to_string();
            out.push(t);
        }
    };
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            flush(&mut word, &mut out);
            i += 1;
            continue;
        }
        if word.is_empty() {
            if let Some(close) = closing(c) {
                if let Some(j) = (i + 1..chars.len()).find(|&j| chars[j] == close) {
                    let text: String = chars[i + 1..j].iter().collect();
                    let mut k = j + 1;
                    let mut t = Token {
                        lower: text.to_lowercase(),
                        raw: text,
                        quoted: true,
                        comma: false,
                        colon: false,
                        stop: false,
                        mark: String::new(),
                        said: Vec::new(),
                    };
                    while k < chars.len() && !chars[k].is_whitespace() {
                        match chars[k] {
                            ',' => t.comma = true,
                            ':' => t.colon = true,
                            '.' | '!' | '?' | ';' => t.stop = true,
                            _ => {}
                        }
                        k += 1;
                    }
                    if !t.raw.trim().is_empty() {
                        out.push(t);
                    }
                    i = k;
                    continue;
                }
            }
        }
        word.push(c);
        i += 1;
    }
    flush(&mut word, &mut out);
    named_dates(out)
}

/// A date written with its month named ("March 7, 1990", "7 March 1990",
/// "Dec 24th 2026") becomes one token in the form every date is read in
/// ("03/07/1990"): the comma inside it splits nothing, and a date field
/// takes it as it takes "03/07/1990".
fn named_dates(toks: Vec<Token>) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        if let Some(date) = named_date(&toks[i..]) {
            let last = &toks[i + 2];
            let mut t = Token::word(&date, last.comma, last.colon, last.stop);
            t.quoted = toks[i].quoted;
            out.push(t);
            i += 3;
            continue;
        }
        out.push(toks[i].clone());
        i += 1;
    }
    out
}

fn named_date(t: &[Token]) -> Option<String> {
    let [a, b, y, ..] = t else {
        return None;
    };
    // Inside one quote ("on "March 7, 1990"") it is one token already.
    if a.quoted || b.quoted || y.quoted || a.stop || b.stop || a.comma {
        return None;
    }
    let (m, d) = match (month_number(&a.lower), day_number(&b.lower)) {
        (Some(m), Some(d)) => (m, d),
        _ => (month_number(&b.lower)?, day_number(&a.lower)?),
    };
    let year = y.raw.len() == 4 && y.raw.chars().all(|c| c.is_ascii_digit());
    year.then(|| format!("{m:02}/{d:02}/{}", y.raw))
}

/// The month a word names: its full name or the usual abbreviation.
pub(super) fn month_number(w: &str) -> Option<u32> {
    const MONTHS: [(&str, &str); 12] = [
        ("january", "jan"),
        ("february", "feb"),
        ("march", "mar"),
        ("april", "apr"),
        ("may", "may"),
        ("june", "jun"),
        ("july", "jul"),
        ("august", "aug"),
        ("september", "sep"),
        ("october", "oct"),
        ("november", "nov"),
        ("december", "dec"),
    ];
    let w = w.trim_end_matches('.');
    let w = if w == "sept" { "sep" } else { w };
    MONTHS
        .iter()
        .position(|(full, short)| *full == w || *short == w)
        .map(|k| k as u32 + 1)
}

/// "AM" / "PM" after a time ("12:13 PM", "9:30 a.m.").
pub(super) fn is_meridiem(t: &Token) -> bool {
    matches!(t.lower.as_str(), "am" | "pm" | "a.m" | "p.m")
}

/// A day of the month ("7", "24th").
pub(super) fn day_number(w: &str) -> Option<u32> {
    let d = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    (d.len() == w.len() || matches!(&w[d.len()..], "st" | "nd" | "rd" | "th"))
        .then(|| d.parse::<u32>().ok())
        .flatten()
        .filter(|d| (1..=31).contains(d))
}

/// Lowercase words of tokens (quoted ones included), for table matching.
pub fn lowers(toks: &[Token]) -> Vec<&str> {
    toks.iter().map(|t| t.lower.as_str()).collect()
}

/// Does a verb phrase start at `i` (unquoted, written lowercase as verbs
/// are mid-sentence, so "and Submit" stays a label)?
fn verb_at(toks: &[Token], i: usize, lex: &Lexicon, mid: bool) -> bool {
    let Some(t) = toks.get(i) else {
        return false;
    };
    if t.quoted || (mid && t.raw.chars().next().is_some_and(char::is_uppercase)) {
        return false;
    }
    let ws: Vec<&str> = lowers(&toks[i..]);
    match_at(lex.verbs, &ws).is_some()
}

/// Group tokens into clauses, one per intended step.
pub fn clauses(toks: &[Token], lex: &Lexicon) -> Vec<Vec<Token>> {
    let mut out: Vec<Vec<Token>> = Vec::new();
    let mut cur: Vec<Token> = Vec::new();
    let mut i = 0;
    let close = |cur: &mut Vec<Token>, out: &mut Vec<Vec<Token>>| {
        while cur
            .last()
            .is_some_and(|t| !t.quoted && (lex.and.contains(&t.lower.as_str()) || t.lower == "to"))
        {
            cur.pop();
        }
        if !cur.is_empty() {
            out.push(std::mem::take(cur));
        }
    };
    while i < toks.len() {
        let t = &toks[i];
        let prev_break = cur.last().is_some_and(|p| p.stop);
        if prev_break {
            close(&mut cur, &mut out);
        }
        if !t.quoted && lex.then.contains(&t.lower.as_str()) && !cur.is_empty() {
            close(&mut cur, &mut out);
            i += 1;
            continue;
        }
        let joins = !t.quoted
            && (lex.and.contains(&t.lower.as_str())
                || (t.lower == "to"
                    && cur.last().is_some_and(|p| {
                        !matches!(
                            p.lower.as_str(),
                            "next"
                                | "similar"
                                | "related"
                                | "go"
                                | "switch"
                                | "navigate"
                                | "want"
                                | "like"
                                | "need"
                                | "how"
                                | "way"
                                | "back"
                                | "up"
                                | "add"
                                | "proceed"
                                | "continue"
                                | "move"
                                | "apply"
                        )
                    })));
        // "Please to complete the checkout" (learners' English): a "to"
        // after nothing but courtesy joins no clause before it.
        let only_courtesy = cur
            .iter()
            .all(|p| !p.quoted && !p.comma && lex.fillers.contains(&p.lower.as_str()));
        if joins && !cur.is_empty() && !only_courtesy && verb_at(toks, i + 1, lex, true) {
            close(&mut cur, &mut out);
            // "to" stays: the clause says what the one before is for
            // ("click the star icon to mark it"), branch.rs reads it.
            if t.lower == "to" {
                cur.push(t.clone());
            }
            i += 1;
            continue;
        }
        let after_comma = cur.last().is_some_and(|p| p.comma);
        if after_comma && verb_at(toks, i, lex, true) {
            close(&mut cur, &mut out);
        }
        cur.push(t.clone());
        i += 1;
    }
    close(&mut cur, &mut out);
    out
}
