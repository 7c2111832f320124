//! Ranges: two values for a pair of fields, "from 12/03/2026 to
//! 12/07/2026", "between 9:00 and 11:00", "from $20 to $50". The start
//! goes to the field of the start role and the end to the field of the end
//! role (From / To, Pick-up / Return, Check-in / Check-out, Min / Max):
//! the values carry the labels "from" and "to", which the planner reads as
//! those roles (`planner/fields.rs` `range_side`). Only values shaped as
//! a date, a time, a number or a price make a range, so "from checking to
//! savings" or "rename from Apollo to Artemis" stay what they were.

use super::tokens::{day_number, is_meridiem, month_number, Token};
use super::{Step, Target, Value};
use crate::task::FieldKind;

/// The ranges of a task taken out of its words: the words left, and one
/// fill step of the start and end values, if any range was said.
pub(super) fn extract(toks: Vec<Token>) -> (Vec<Token>, Option<Step>) {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut values: Vec<Value> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if let Some((start, end, used)) = range_at(&toks, i) {
            values.push(Value::literal(start, FieldKind::Other, "from"));
            values.push(Value::literal(end, FieldKind::Other, "to"));
            // The punctuation after the range stays with the word before it.
            let last = &toks[i + used - 1];
            if let Some(prev) = out.last_mut() {
                prev.comma |= last.comma;
                prev.stop |= last.stop;
                prev.colon |= last.colon;
            }
            i += used;
            continue;
        }
        out.push(toks[i].clone());
        i += 1;
    }
    if values.is_empty() {
        return (toks, None);
    }
    let step = Step::Fill {
        values,
        field: Target::default(),
    };
    (out, Some(step))
}

/// "from A to|until|till|through B", "between A and B" at `i`: the start,
/// the end and how many tokens the range takes.
fn range_at(toks: &[Token], i: usize) -> Option<(String, String, usize)> {
    let opener = toks.get(i)?;
    // "for A through B" and a bare "A until B": only the joiners that say
    // a range by themselves ("for 3 to 5" may be anything).
    const SPAN: &[&str] = &["until", "till", "through", "thru"];
    let (joiners, o): (&[&str], usize) = match opener.lower.as_str() {
        _ if opener.quoted || opener.comma || opener.stop => (SPAN, 0),
        "from" => (&["to", "until", "till", "through", "thru"], 1),
        "between" => (&["and"], 1),
        "for" => (SPAN, 1),
        _ => (SPAN, 0),
    };
    let (a, na) = value_at(toks, i + o)?;
    let mid = toks.get(i + o + na)?;
    if toks[i + o + na - 1].stop || mid.quoted || !joiners.contains(&mid.lower.as_str()) {
        return None;
    }
    // An end without its year has no year to give: no range.
    let (Shape::Text(b), nb) = value_at(toks, i + o + 1 + na)? else {
        return None;
    };
    // "December 3 to 12/07/2026": the start borrows the end's year.
    let a = match (a, b.rsplit('/').next()) {
        (Shape::MonthDay(m, d), Some(y)) if b.matches('/').count() == 2 => {
            format!("{m:02}/{d:02}/{y}")
        }
        (Shape::MonthDay(..), _) => return None,
        (Shape::Text(s), _) => s,
    };
    Some((a, b, o + 1 + na + nb))
}

enum Shape {
    Text(String),
    /// A named date without its year ("December 3").
    MonthDay(u32, u32),
}

/// A value a range can hold at `i`: a date, a time (with its AM / PM), a
/// number or a price, quoted or not; the text and its token count.
fn value_at(toks: &[Token], i: usize) -> Option<(Shape, usize)> {
    let t = toks.get(i)?;
    if let (false, Some(m), Some(d)) = (
        t.quoted,
        month_number(&t.lower),
        toks.get(i + 1).and_then(|n| day_number(&n.lower)),
    ) {
        return Some((Shape::MonthDay(m, d), 2));
    }
    let w = t.raw.trim();
    if !value_shaped(w) {
        return None;
    }
    let ampm = !t.quoted && w.contains(':') && toks.get(i + 1).is_some_and(is_meridiem);
    if ampm {
        return Some((Shape::Text(format!("{w} {}", toks[i + 1].raw)), 2));
    }
    Some((Shape::Text(w.to_string()), 1))
}

/// Digits with the marks of a date, a time or a price ("12/03/2026",
/// "9:30", "9.30am", "$65", "1,200").
fn value_shaped(w: &str) -> bool {
    let body = w
        .trim_start_matches(['$', '€', '£'])
        .trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let digits = body.chars().filter(char::is_ascii_digit).count();
    digits > 0
        && body
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '/' | ':' | '.' | ',' | '-'))
        && body.chars().next().is_some_and(|c| c.is_ascii_digit())
}
