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
}

impl Token {
    fn word(raw: &str, comma: bool, colon: bool, stop: bool) -> Token {
        Token {
            raw: raw.to_string(),
            lower: raw.to_lowercase(),
            quoted: false,
            comma,
            colon,
            stop,
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
            out.push(Token::word(trimmed, comma, colon, stop));
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
    out
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
        if joins && !cur.is_empty() && verb_at(toks, i + 1, lex, true) {
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
