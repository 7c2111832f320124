//! Text normalisation shared by the scorer, the planner, the security gate and
//! the task parser. Everything here is deterministic and offline (docs/contracts/system2.md
//! asks for semantic relevance without a network round trip).

mod abbrev;
pub use abbrev::{abbreviated_words, written_short_for};

use std::collections::HashMap;
use std::sync::OnceLock;

/// Multi-word UI phrases folded into one token before tokenising, so that
/// "Log in", "Sign in" and "signin" all mean the same concept.
const PHRASES: &[(&[&str], &str)] = &[
    (&["log", "in"], "login"),
    (&["sign", "in"], "login"),
    (&["signin"], "login"),
    (&["logon"], "login"),
    (&["log", "on"], "login"),
    (&["sign", "up"], "register"),
    (&["signup"], "register"),
    (&["create", "account"], "register"),
    (&["create", "an", "account"], "register"),
    (&["log", "out"], "logout"),
    (&["sign", "out"], "logout"),
    (&["signout"], "logout"),
    (&["check", "out"], "checkout"),
    (&["e", "mail"], "email"),
    (&["look", "up"], "search"),
    (&["place", "order"], "placeorder"),
    (&["place", "your", "order"], "placeorder"),
    (&["add", "to", "cart"], "addtocart"),
    (&["add", "to", "basket"], "addtocart"),
    (&["user", "name"], "username"),
    (&["pass", "word"], "password"),
    // An address's parts as forms of different countries name them.
    (&["zip", "code"], "postcode"),
    (&["postal", "code"], "postcode"),
    (&["post", "code"], "postcode"),
    (&["address", "line", "1"], "street"),
    (&["address", "line", "one"], "street"),
    (&["street", "address"], "street"),
];

/// Synonym groups: every word maps to the first word of its group.
const SYNONYMS: &[&[&str]] = &[
    &["login", "logon", "authenticate"],
    &["register", "enroll", "join"],
    &["submit", "send", "confirm", "done", "apply", "save"],
    &["continue", "next", "proceed", "forward"],
    &["search", "find", "lookup", "query", "seek"],
    &["buy", "purchase", "pay", "checkout", "placeorder", "order"],
    &["cart", "basket", "bag", "trolley"],
    &["contact", "support", "help", "reach"],
    &[
        "delete", "remove", "erase", "destroy", "discard", "trash", "bin", "drop",
    ],
    &[
        "settings",
        "preferences",
        "options",
        "configuration",
        "config",
    ],
    &["logout", "exit"],
    &["price", "pricing", "plans", "cost", "fee", "fees", "rates"],
    &["home", "homepage", "start"],
    &["account", "profile"],
    &["menu", "navigation", "nav", "hamburger"],
    &["close", "dismiss", "cancel"],
    &["email", "mail"],
    &["phone", "telephone", "tel", "mobile"],
    &[
        "message", "comment", "comments", "inquiry", "enquiry", "note",
    ],
    &["username", "user", "userid", "login_id"],
    &["password", "passcode", "pwd", "passphrase"],
    &["download", "get"],
    &["about", "info", "information"],
    // One part of an address, named the way another country's form does.
    &["postcode", "zip", "zipcode", "postal"],
    &["street", "address1"],
    // The one line that names a thing being written: an issue's summary,
    // a message's subject, a post's or an event's title.
    &["title", "summary", "subject", "headline"],
    // A message marked important: a star in one mail app, a flag in another.
    &["star", "starred", "flag", "flagged"],
];

/// Words that carry no meaning for matching a task against a label.
const STOPWORDS: &[&str] = &[
    "a", "an", "the", "to", "of", "and", "or", "on", "in", "at", "for", "with", "by", "it", "this",
    "that", "is", "be", "as", "my", "me", "your", "you", "i", "please", "then", "go", "page",
    "click", "button", "link", "into", "from", "its", "them", "all", "some", "now",
];

/// Lowercase, punctuation to spaces, whitespace collapsed.
pub fn normalize(s: &str) -> String {
    normalized(s, false)
}

/// `normalize`, except a decimal point or thousands comma between digits,
/// so prices survive ("$1,299.50" → "1299.50"): the planner's page layout.
pub fn normalize_numbers(s: &str) -> String {
    normalized(s, true)
}

/// Bytes `normalize` keeps as they are: ASCII lower case, digits, `@`.
const KEPT: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'@';
        c += 1;
    }
    t
};

/// Both normalisations in one loop over bytes: a run of bytes kept as
/// they are is copied at once, other ASCII bytes are classified as they
/// are, and a character is decoded only where a byte is not ASCII. The
/// planner normalises the page's text and every label at each step, so
/// this loop is a visible share of a step's CPU (docs/benchmarks.md "The
/// planner's words, once per page").
fn normalized(s: &str, numbers: bool) -> String {
    let b = s.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut space = true;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if KEPT[usize::from(c)] {
            let start = i;
            while i < b.len() && KEPT[usize::from(b[i])] {
                i += 1;
            }
            out.extend_from_slice(&b[start..i]);
            space = false;
        } else if c.is_ascii_uppercase() {
            out.push(c.to_ascii_lowercase());
            space = false;
            i += 1;
        } else if c.is_ascii() {
            // The neighbours are bytes: a character before or after that
            // is not ASCII has no ASCII digit among its bytes.
            let between_digits =
                i > 0 && b[i - 1].is_ascii_digit() && b.get(i + 1).is_some_and(u8::is_ascii_digit);
            if numbers && (c == b'.' || c == b',') && between_digits {
                if c == b'.' {
                    out.push(b'.');
                }
            } else if !space {
                out.push(b' ');
                space = true;
            }
            i += 1;
        } else {
            // `i` is on a character boundary: every step above moves by
            // ASCII bytes, this one by a whole character.
            let Some(ch) = s.get(i..).and_then(|rest| rest.chars().next()) else {
                break;
            };
            if ch.is_alphanumeric() {
                let mut buf = [0u8; 4];
                for l in ch.to_lowercase() {
                    out.extend_from_slice(l.encode_utf8(&mut buf).as_bytes());
                }
                space = false;
            } else if !space {
                out.push(b' ');
                space = true;
            }
            i += ch.len_utf8();
        }
    }
    if out.last() == Some(&b' ') {
        out.pop();
    }
    // Whole characters of `s` and ASCII bytes only: always UTF-8.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Normalised words with multi-word phrases folded (see `PHRASES`). Works
/// on the word sequence, so it costs a few comparisons per word.
pub fn folded_words(s: &str) -> Vec<String> {
    let norm = normalize(s);
    folded(&norm).into_iter().map(str::to_string).collect()
}

/// `folded_words` of an already normalised text, borrowing from it.
fn folded(norm: &str) -> Vec<&str> {
    let ws: Vec<&str> = norm.split(' ').filter(|w| !w.is_empty()).collect();
    let mut out = Vec::with_capacity(ws.len());
    let mut i = 0;
    'words: while i < ws.len() {
        for (from, to) in PHRASES {
            if ws[i..].starts_with(from) {
                out.push(*to);
                i += from.len();
                continue 'words;
            }
        }
        out.push(ws[i]);
        i += 1;
    }
    out
}

/// Normalised text with multi-word phrases folded.
pub fn fold_phrases(s: &str) -> String {
    folded_words(s).join(" ")
}

/// A light suffix stemmer: enough to match "searching"/"searches"/"search".
pub fn stem(word: &str) -> String {
    stem_str(word).to_string()
}

fn stem_str(word: &str) -> &str {
    for suffix in ["ing", "ed", "es", "s"] {
        if word.len() > suffix.len() + 3 && word.ends_with(suffix) {
            return &word[..word.len() - suffix.len()];
        }
    }
    word
}

/// FNV-1a for the small static word maps (SipHash is the cost otherwise).
#[derive(Default)]
struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0 = fnv1a(bytes, if self.0 == 0 { FNV_OFFSET } else { self.0 });
    }
}

type FnvMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<Fnv>>;

fn synonym_heads() -> &'static FnvMap<&'static str, &'static str> {
    static MAP: OnceLock<FnvMap<&'static str, &'static str>> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut m = FnvMap::default();
        for group in SYNONYMS {
            for w in *group {
                m.entry(*w).or_insert(group[0]);
            }
        }
        m
    })
}

/// The concept a word stands for (its synonym group head), else its stem.
pub fn concept(word: &str) -> String {
    concept_str(word).to_string()
}

fn concept_str(word: &str) -> &str {
    let heads = synonym_heads();
    if let Some(h) = heads.get(word) {
        return h;
    }
    let s = stem_str(word);
    match heads.get(s) {
        Some(h) => h,
        None => s,
    }
}

/// Content concepts of a text: phrases folded, stopwords dropped, synonyms
/// merged; order kept, duplicates removed.
pub fn concepts(s: &str) -> Vec<String> {
    let norm = normalize(s);
    let mut out: Vec<&str> = Vec::new();
    for w in folded(&norm) {
        if STOPWORDS.contains(&w) {
            continue;
        }
        let c = concept_str(w);
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out.into_iter().map(str::to_string).collect()
}

/// A word that carries no meaning for matching ("the", "to", "my").
pub fn is_stopword(w: &str) -> bool {
    STOPWORDS.contains(&w)
}

/// Raw lowercase words (no concept folding), for field-label matching.
pub fn words(s: &str) -> Vec<String> {
    folded_words(s)
}

/// The quoted strings of a task: "x", 'x' (only when the quote opens a word,
/// so apostrophes in "don't" are not quotes) and “x”.
/// Returns (start of the opening quote, end after the closing quote, text).
pub fn quoted(s: &str) -> Vec<(usize, usize, String)> {
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (pos, c) = chars[i];
        let close = match c {
            '"' => Some('"'),
            '“' => Some('”'),
            '\'' if i == 0 || !chars[i - 1].1.is_alphanumeric() => Some('\''),
            _ => None,
        };
        if let Some(close) = close {
            if let Some(j) = (i + 1..chars.len()).find(|&j| chars[j].1 == close) {
                let start = chars[i + 1..].first().map(|c| c.0).unwrap_or(s.len());
                let text = &s[start.min(chars[j].0)..chars[j].0];
                if !text.is_empty() {
                    let end = chars[j].0 + close.len_utf8();
                    out.push((pos, end, text.to_string()));
                }
                i = j + 1;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// http(s) URLs named in a text, trailing punctuation trimmed.
pub fn urls(s: &str) -> Vec<String> {
    s.split(|c: char| c.is_whitespace() || c == '"' || c == '\'' || c == '<' || c == '>')
        .filter(|w| w.starts_with("http://") || w.starts_with("https://"))
        .map(|w| {
            w.trim_end_matches(['.', ',', ';', ':', ')', '!', '?'])
                .to_string()
        })
        .collect()
}

/// Phrases that show a task's goal was reached (login, order, form, payment).
pub const SUCCESS_PHRASES: &[&str] = &[
    "welcome",
    "logged in",
    "signed in",
    "you are in",
    "thank you",
    "thanks for",
    "order confirmed",
    "order placed",
    "order complete",
    "payment successful",
    "payment complete",
    "payment received",
    "purchase complete",
    "message sent",
    "has been sent",
    "successfully",
    "success",
    "submitted",
    // "Coupon SPRING20 applied" (tests/pages/browse/tempt-reveal.html).
    "applied",
    "confirmation number",
];

/// Success phrases present in a text (normalised, on word boundaries).
pub fn success_markers(text: &str) -> Vec<String> {
    // The phrases indexed by their first word: one lookup per word of the
    // text (page text is long; a run's first step reads all of it).
    type ByFirst = FnvMap<&'static str, Vec<(usize, &'static str)>>;
    static BY_FIRST: OnceLock<ByFirst> = OnceLock::new();
    let by_first = BY_FIRST.get_or_init(|| {
        let mut m = ByFirst::default();
        for (k, p) in SUCCESS_PHRASES.iter().enumerate() {
            let first = p.split(' ').next().unwrap_or_default();
            m.entry(first).or_default().push((k, *p));
        }
        m
    });
    let norm = normalize(text);
    let mut found = [false; SUCCESS_PHRASES.len()];
    // The words as `norm.split(' ')` gives them, found in place (no list
    // of them is built): a phrase starts at a word when the text from
    // there starts with it and a space or the end follows.
    let mut start = 0;
    while start <= norm.len() {
        let rest = &norm[start..];
        let end = memchr::memchr(b' ', rest.as_bytes()).unwrap_or(rest.len());
        if let Some(cands) = by_first.get(&rest[..end]) {
            for (k, p) in cands {
                if rest.starts_with(p) && matches!(rest.as_bytes().get(p.len()), None | Some(b' '))
                {
                    found[*k] = true;
                }
            }
        }
        start += end + 1;
    }
    SUCCESS_PHRASES
        .iter()
        .zip(found)
        .filter(|(_, f)| *f)
        .map(|(p, _)| p.to_string())
        .collect()
}

/// Does `hay` contain `needle` as whole words (both normalised)?
pub fn contains_words(hay: &str, needle: &str) -> bool {
    let n = normalize(needle);
    !n.is_empty() && format!(" {} ", normalize(hay)).contains(&format!(" {n} "))
}

/// `" {hay} "` contains `" {needle} "`, both already normalised: `needle`
/// is whole words of `hay`, found without building either padded string.
/// Every match is tried, overlapping ones too ("a a" in "aa a a").
pub fn has_words(hay: &str, needle: &str) -> bool {
    let b = hay.as_bytes();
    let mut from = 0;
    while let Some(i) = hay.get(from..).and_then(|rest| rest.find(needle)) {
        let (p, end) = (from + i, from + i + needle.len());
        if (p == 0 || b[p - 1] == b' ') && (end == b.len() || b[end] == b' ') {
            return true;
        }
        from = p + hay[p..].chars().next().map_or(1, char::len_utf8);
    }
    false
}

/// Truncate to at most `max` chars on a char boundary.
pub fn truncate(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// FNV-1a: a hash that is stable across processes and Rust versions, used for
/// page signatures persisted in the run history.
pub fn fnv1a(bytes: &[u8], mut h: u64) -> u64 {
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

#[cfg(test)]
mod tests;
