//! Browser behaviour from the task text (docs/contracts/tools.md
//! §17.4; docs/hands.md).
//!
//! The spec's three pattern lists, Italian and English, verbatim; a
//! same-page pattern overrides the other two. Matching ignores case (as the
//! spec's `toLowerCase()`) and, beyond the spec, accents and runs of
//! whitespace, so "Apri una NUOVA   scheda" and "ricominciá" match.

use serde::{Deserialize, Serialize};

/// docs/contracts/tools.md §17.4 `NEW_TAB_PATTERNS`.
pub const NEW_TAB_PATTERNS: &[&str] = &[
    "nuova pagina",
    "nuova tab",
    "nuovo tab",
    "nuova scheda",
    "apri una nuova",
    "in una nuova",
    "apri nuova",
    "new tab",
    "new page",
    "open new",
    "in a new",
    "altra pagina",
    "altra tab",
    "altra scheda",
];

/// docs/contracts/tools.md §17.4 `CLOSE_PATTERNS`.
pub const CLOSE_PATTERNS: &[&str] = &[
    "chiudi e apri",
    "riavvia browser",
    "nuovo browser",
    "close and open",
    "restart browser",
    "fresh browser",
    "ricomincia",
    "da zero",
    "from scratch",
];

/// docs/contracts/tools.md §17.4 `SAME_PAGE_PATTERNS`.
pub const SAME_PAGE_PATTERNS: &[&str] = &[
    "stessa pagina",
    "questa pagina",
    "pagina corrente",
    "same page",
    "current page",
    "this page",
    "continua",
    "prosegui",
    "vai avanti",
];

/// docs/contracts/tools.md §17.4 result: `{ newTab, closeCurrent }`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BrowserBehavior {
    pub new_tab: bool,
    pub close_current: bool,
}

pub fn detect_browser_behavior(task: &str) -> BrowserBehavior {
    let text = fold(task);
    let any = |list: &[&str]| list.iter().any(|p| text.contains(p));
    if any(SAME_PAGE_PATTERNS) {
        return BrowserBehavior::default();
    }
    BrowserBehavior {
        new_tab: any(NEW_TAB_PATTERNS),
        close_current: any(CLOSE_PATTERNS),
    }
}

/// Lower case, accents removed (Latin letters the two languages use), runs
/// of whitespace collapsed to one space.
pub fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars().flat_map(char::to_lowercase) {
        if c.is_whitespace() {
            if !space && !out.is_empty() {
                out.push(' ');
            }
            space = true;
            continue;
        }
        space = false;
        out.push(strip_accent(c));
    }
    if out.ends_with(' ') {
        out.pop();
    }
    out
}

fn strip_accent(c: char) -> char {
    match c {
        'à' | 'á' | 'â' | 'ä' | 'ã' | 'å' => 'a',
        'è' | 'é' | 'ê' | 'ë' => 'e',
        'ì' | 'í' | 'î' | 'ï' => 'i',
        'ò' | 'ó' | 'ô' | 'ö' | 'õ' => 'o',
        'ù' | 'ú' | 'û' | 'ü' => 'u',
        'ç' => 'c',
        'ñ' => 'n',
        // U+2019 and friends: "l’elemento" reads as "l'elemento".
        '\u{2018}' | '\u{2019}' => '\'',
        other => other,
    }
}

#[cfg(test)]
mod tests;
