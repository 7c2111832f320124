//! Answer-style values: "Enter the phone number of Bob Smith into the
//! field", "the code shown on the page", "the order total" read the page.
//! The visible text is one line (whitespace collapsed), so the value is the
//! first word after the key (a row's name, a "Name: value" pair; without a
//! key, the words that name what is asked) that has the shape of what is
//! asked: digits for a phone or number, an @ for an email, a date, an
//! amount; else the next word.

use crate::page::Page;
use crate::text::normalize;

fn digits(s: &str) -> usize {
    s.chars().filter(char::is_ascii_digit).count()
}

fn shape_ok(what: &str, w: &str) -> bool {
    let what = normalize(what);
    let has = |ws: &[&str]| ws.iter().any(|x| what.split(' ').any(|y| y == *x));
    if has(&["email", "mail", "e"]) {
        return w.contains('@');
    }
    if has(&["phone", "telephone", "tel", "mobile", "fax"]) {
        return digits(w) >= 3
            && w.chars()
                .all(|c| c.is_ascii_digit() || "+-() .".contains(c));
    }
    if has(&["date", "birthday", "born", "day", "dob"]) {
        return digits(w) >= 1 && w.chars().any(|c| "/-.".contains(c))
            || w.chars().all(char::is_alphabetic) && w.len() >= 3;
    }
    if has(&[
        "price", "cost", "amount", "total", "balance", "salary", "fee", "subtotal", "sum",
    ]) {
        // An amount is digits, a currency sign and separators: never an
        // account's masked "••7725" or a rate's "4.10%".
        return digits(w) >= 1
            && w.chars()
                .all(|c| c.is_ascii_digit() || "$€£¥₹,.-+−".contains(c));
    }
    if has(&[
        "age", "year", "count", "number", "quantity", "id", "zip", "code", "score", "rank", "pin",
        "otp",
    ]) {
        return digits(w) >= 1;
    }
    true
}

/// The value the page shows for `what` of `key` (or, without a key, the
/// value written after the words of `what`), if any, as it is typed into a
/// field (an amount without its currency sign).
pub fn find(page: &Page, what: &str, key: &str, task: &str) -> Option<String> {
    let v = written(page, what, key, task)?;
    Some(if shape_money(what) {
        v.trim_start_matches(['$', '€', '£', '¥', '₹']).to_string()
    } else {
        v
    })
}

/// The same value as the page writes it, for an answer ("$12,480.22").
pub fn written(page: &Page, what: &str, key: &str, task: &str) -> Option<String> {
    // The instruction may be on the page too: look only outside it.
    let text = page.visible_text.replace(task, " ");
    let lower = text.to_lowercase();
    let k = if key.trim().is_empty() {
        // The last word of what is asked ("order total" → "total").
        what.split_whitespace()
            .last()
            .unwrap_or_default()
            .to_lowercase()
    } else {
        key.trim().to_lowercase()
    };
    if k.is_empty() {
        return None;
    }
    let mut from = 0;
    while let Some(pos) = lower[from..].find(&k) {
        let start = from + pos + k.len();
        let after: Vec<&str> = text[start..]
            .split_whitespace()
            .map(|w| w.trim_matches(|c: char| matches!(c, ',' | ';' | ':' | '|')))
            .filter(|w| !w.is_empty())
            .take(12)
            .collect();
        // A phone number written in parts ("555 0100"): join digit groups.
        for (i, w) in after.iter().enumerate() {
            if shape_ok(what, w) && !normalize(what).split(' ').any(|x| x == normalize(w)) {
                let mut v = w.to_string();
                if digits(w) > 0 && w.chars().all(|c| c.is_ascii_digit() || "+-().".contains(c)) {
                    for nxt in &after[i + 1..] {
                        if digits(nxt) > 0
                            && nxt.chars().all(|c| c.is_ascii_digit() || "-()".contains(c))
                            && shape_ok(what, &format!("{v} {nxt}"))
                            && is_phone(what)
                        {
                            v = format!("{v} {nxt}");
                        } else {
                            break;
                        }
                    }
                }
                return Some(v.trim_end_matches('.').to_string());
            }
        }
        from = start;
    }
    None
}

fn is_phone(what: &str) -> bool {
    let w = normalize(what);
    ["phone", "telephone", "tel", "mobile", "fax"]
        .iter()
        .any(|x| w.split(' ').any(|y| y == *x))
}

fn shape_money(what: &str) -> bool {
    let w = normalize(what);
    [
        "price", "cost", "amount", "total", "balance", "salary", "fee", "subtotal", "sum",
    ]
    .iter()
    .any(|x| w.split(' ').any(|y| y == *x))
}
