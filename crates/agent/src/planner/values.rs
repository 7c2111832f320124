//! Values as a field takes them: a date written "10/11/2016" or "March 14,
//! 2025" goes into `<input type=date>` as 2016-10-11, "12:13 PM" into
//! `<input type=time>` as 12:13, "2-10" into a `<select>` as its option
//! "2–10". And the shape of a value, which tells which field it is for
//! when its label does not ("on 10/11/2016" → the date field).

use crate::text::{normalize, written_short_for};
use sentience_snapshot_core::{Observed, SelectOption};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Date,
    Time,
    Email,
    Phone,
    Number,
    Text,
}

pub fn shape(v: &str) -> Shape {
    let t = v.trim();
    if date(t).is_some() {
        Shape::Date
    } else if time(t).is_some() {
        Shape::Time
    } else if t.contains('@') && t.contains('.') && !t.contains(' ') {
        Shape::Email
    } else if t.chars().filter(char::is_ascii_digit).count() >= 7
        && t.chars()
            .all(|c| c.is_ascii_digit() || "+-() .".contains(c))
        && t.contains(['-', ' ', '(', '+'])
    {
        Shape::Phone
    } else if !t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
    {
        Shape::Number
    } else {
        Shape::Text
    }
}

/// The shape a field asks for, by its type or the words that label it.
pub fn field_shape(e: &Observed) -> Option<Shape> {
    match e.facts.input_type.as_str() {
        "date" | "datetime-local" | "month" | "week" => return Some(Shape::Date),
        "time" => return Some(Shape::Time),
        "email" => return Some(Shape::Email),
        "tel" => return Some(Shape::Phone),
        "number" => return Some(Shape::Number),
        _ => {}
    }
    let words = normalize(&e.descriptors());
    let has = |w: &str| words.split(' ').any(|x| x == w);
    if has("date") || has("dd") || has("mm") && has("yyyy") || has("birthday") || has("dob") {
        Some(Shape::Date)
    } else if has("time") || has("hh") {
        Some(Shape::Time)
    } else {
        None
    }
}

/// The field's example (its placeholder, "e.g. 1234-5678", "AB12 3CD")
/// has the value's form: the same run of digits, letters and marks, each
/// digit for a digit and each letter for a letter ("7730-1192" fits
/// "1234-5678"). A value in the form a field shows goes there whatever
/// the task calls it. Needs a digit, so a plain word fits no example.
pub fn fits_example(e: &Observed, v: &str) -> bool {
    let form = |s: &str| -> String {
        s.chars()
            .map(|c| match c {
                '0'..='9' => '9',
                c if c.is_alphabetic() => 'a',
                c => c,
            })
            .collect()
    };
    let want = form(v.trim());
    want.contains('9')
        && want.len() >= 4
        && e.facts
            .placeholder
            .split_whitespace()
            .any(|w| form(w.trim_end_matches([',', '.', ')'])) == want)
}

/// Month names, January first (dates in words, calendars' headings).
pub(crate) const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

fn month_of(w: &str) -> Option<u32> {
    let w = w.trim_end_matches('.').to_lowercase();
    if w.len() < 3 {
        return None;
    }
    MONTHS
        .iter()
        .position(|m| m.starts_with(&w))
        .map(|i| i as u32 + 1)
}

/// A weekday's name or its usual abbreviation ("Tuesday", "Tue", "Tues.").
fn is_weekday(w: &str) -> bool {
    const DAYS: [&str; 7] = [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
    ];
    let w = w.trim_end_matches('.').to_lowercase();
    w.len() >= 3 && DAYS.iter().any(|d| d.starts_with(&w))
}

/// (year, month, day) of a date as people write it: 10/11/2016 (month
/// first), 2016-10-11, March 14, 2025, 14 March 2025, Mar 14 2025, with or
/// without a weekday before it (Tuesday, October 11, 2016).
pub fn date(s: &str) -> Option<(u32, u32, u32)> {
    let t = s.trim().trim_end_matches(['.', ',']);
    let nums: Vec<&str> = t.split(['/', '-', '.']).collect();
    if nums.len() == 3
        && nums
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
    {
        let n: Vec<u32> = nums.iter().filter_map(|p| p.parse().ok()).collect();
        if n.len() == 3 {
            let (y, m, d) = if nums[0].len() == 4 {
                (n[0], n[1], n[2])
            } else {
                let y = if nums[2].len() == 2 {
                    2000 + n[2]
                } else {
                    n[2]
                };
                (y, n[0], n[1])
            };
            return ((1..=12).contains(&m) && (1..=31).contains(&d) && y >= 1000)
                .then_some((y, m, d));
        }
    }
    let mut words: Vec<&str> = t.split([' ', ',']).filter(|w| !w.is_empty()).collect();
    // A weekday before the date ("Tuesday, October 11, 2016", "Tue 11 Oct
    // 2016"): the accessible name date pickers give their day cells; the
    // weekday adds nothing to the date.
    if words.len() == 4 && is_weekday(words[0]) {
        words.remove(0);
    }
    if words.len() == 3 {
        let num = |w: &str| -> Option<u32> {
            w.trim_end_matches(|c: char| c.is_ascii_alphabetic())
                .parse()
                .ok()
        };
        let (m, d, y) = if let Some(m) = month_of(words[0]) {
            (m, num(words[1])?, num(words[2])?)
        } else {
            (month_of(words[1])?, num(words[0])?, num(words[2])?)
        };
        return ((1..=31).contains(&d) && y >= 1000).then_some((y, m, d));
    }
    None
}

/// (hour 0–23, minute) of a time: 19:30, 7:30 pm, 12:13 PM, 7 pm, noon.
pub fn time(s: &str) -> Option<(u32, u32)> {
    let t = s.trim().to_lowercase().replace('.', "");
    if t == "noon" {
        return Some((12, 0));
    }
    if t == "midnight" {
        return Some((0, 0));
    }
    let (clock, pm, am) = if let Some(c) = t.strip_suffix("pm") {
        (c.trim().to_string(), true, false)
    } else if let Some(c) = t.strip_suffix("am") {
        (c.trim().to_string(), false, true)
    } else {
        (t.clone(), false, false)
    };
    let mut parts = clock.split(':');
    let h: u32 = parts.next()?.trim().parse().ok()?;
    let m: u32 = match parts.next() {
        Some(m) => m.trim().get(..2)?.parse().ok()?,
        None if pm || am => 0,
        None => return None,
    };
    if parts.next().is_some() && !(pm || am) && clock.split(':').count() > 3 {
        return None;
    }
    let h = match (h, pm, am) {
        (12, false, true) => 0,
        (h, true, _) if h < 12 => h + 12,
        (h, _, _) => h,
    };
    (h < 24 && m < 60).then_some((h, m))
}

/// The text to type into `e` for the value `v`: dates and times in the
/// form native inputs take, an option's own text for a `<select>`.
pub fn for_field(e: &Observed, v: &str) -> String {
    match e.facts.input_type.as_str() {
        "date" => {
            if let Some((y, m, d)) = date(v) {
                return format!("{y:04}-{m:02}-{d:02}");
            }
        }
        "month" => {
            if let Some((y, m, _)) = date(v) {
                return format!("{y:04}-{m:02}");
            }
        }
        "time" => {
            if let Some((h, m)) = time(v) {
                return format!("{h:02}:{m:02}");
            }
        }
        "datetime-local" => {
            let (d, t) = v.rsplit_once(' ').unwrap_or((v, ""));
            if let (Some((y, mo, da)), Some((h, mi))) = (date(d), time(t).or(Some((0, 0)))) {
                return format!("{y:04}-{mo:02}-{da:02}T{h:02}:{mi:02}");
            }
        }
        _ => {}
    }
    if e.is_select() {
        if let Some(o) = option_for(e, v) {
            return o;
        }
    }
    // A text box that shows the form it wants ("YYYY-MM-DD", "DD/MM/YYYY"
    // as its placeholder or label): the date written that way.
    if let (Some(pattern), Some(ymd)) = (date_pattern(e), date(v)) {
        return write_date(&pattern, ymd);
    }
    v.to_string()
}

/// The date form a text box spells out in its placeholder, label or hint:
/// letters Y, M, D with separators ("YYYY-MM-DD", "dd.mm.yyyy", "MM/DD/YY").
pub fn date_pattern(e: &Observed) -> Option<String> {
    if e.facts.input_type != "text" && !e.facts.input_type.is_empty() {
        return None;
    }
    [
        e.facts.placeholder.as_str(),
        e.label(),
        e.facts.hint.as_str(),
    ]
    .into_iter()
    .flat_map(|s| s.split(|c: char| c.is_whitespace() || c == '(' || c == ')'))
    .find(|w| {
        let up = w.to_ascii_uppercase();
        up.contains("YY")
            && up.contains("MM")
            && up.contains("DD")
            && up
                .chars()
                .all(|c| matches!(c, 'Y' | 'M' | 'D' | '/' | '-' | '.'))
    })
    .map(str::to_ascii_uppercase)
}

/// `ymd` in `pattern`'s form: each run of Y, M or D replaced by that part,
/// as many digits as the run (a two-letter year takes the last two).
pub fn write_date(pattern: &str, (y, m, d): (u32, u32, u32)) -> String {
    let mut out = String::new();
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let run = chars[i..].iter().take_while(|&&x| x == c).count();
        match c {
            'Y' if run <= 2 => out.push_str(&format!("{:02}", y % 100)),
            'Y' => out.push_str(&format!("{y:04}")),
            'M' => out.push_str(&format!("{m:0run$}")),
            'D' => out.push_str(&format!("{d:0run$}")),
            other => out.extend(std::iter::repeat_n(other, run)),
        }
        i += run;
    }
    out
}

/// The option of a `<select>` (or listbox) that a value names: the same
/// words, or the value's words among the option's ("Berlin" → "UTC+01:00
/// Berlin"); dashes and case do not matter.
pub fn option_for(e: &Observed, v: &str) -> Option<String> {
    option_among(e.element.state.options(), v)
}

/// The option among `opts` that a value names, by the rules of
/// `option_for`: also for a set of choices that is no `<select>` (a radio
/// group, whose labels are its options).
pub fn option_among(opts: &[SelectOption], v: &str) -> Option<String> {
    let want = normalize(v);
    if want.is_empty() {
        return None;
    }
    let exact = opts
        .iter()
        .find(|o| normalize(&o.text) == want || normalize(&o.value) == want);
    if let Some(o) = exact {
        return Some(o.text.clone());
    }
    let padded = format!(" {want} ");
    // A code ("RP-40718", "KES-210") is one word: an option that is only
    // a piece of it ("RP") is not the value, however short. So is a date
    // or a time of day: the Hour select's "12" is no piece of
    // "12/09/2026", the Minute select's "30" none of "2:30 PM" (their
    // parts are set by `steps/fill/date_parts.rs` and `time_parts.rs`).
    let code = is_code(v) || date(v).is_some() || time(v).is_some();
    opts.iter()
        .filter(|o| format!(" {} ", normalize(&o.text)).contains(&padded))
        .min_by_key(|o| o.text.len())
        .or_else(|| {
            opts.iter()
                .filter(|o| {
                    let n = normalize(&o.text);
                    !code && !n.is_empty() && format!(" {want} ").contains(&format!(" {n} "))
                })
                .max_by_key(|o| o.text.len())
        })
        .map(|o| o.text.clone())
        .or_else(|| same_time_or_short(opts, v))
        .or_else(|| same_quantity(opts, v))
        .or_else(|| led_by_short_word(opts, &want))
}

/// The one option that shows the same quantity as the value, its unit
/// written short or joined to the number, among other words ("Standard
/// (240L)" for "240 litres", "Pack of 6 (1.5 kg)" for "1.5 kilograms",
/// "90-day" for "90 days"): option lists name a size by what it is and
/// put the measure in brackets. The value is a number and a unit word
/// only; the option's unit must be the value's or the start of it, so
/// "240 litres" is not "240 ml". None when two options would fit.
fn same_quantity(opts: &[SelectOption], v: &str) -> Option<String> {
    let (num, unit) = quantity(v)?;
    let fits: Vec<&SelectOption> = opts
        .iter()
        .filter(|o| {
            quantities(&o.text).into_iter().any(|(n, u)| {
                n == num
                    && !u.is_empty()
                    && (u == unit || unit.starts_with(&u) || u.starts_with(&unit))
            })
        })
        .collect();
    match fits.as_slice() {
        [one] => Some(one.text.clone()),
        _ => None,
    }
}

/// `text` shows a number of the same unit as the value, a number and one
/// unit word ("2 guests" in "Party size 2 guests" for "4 guests"): a
/// control that shows a count of things is the one for a count of them.
pub fn same_unit(text: &str, v: &str) -> bool {
    let Some((_, unit)) = quantity(v) else {
        return false;
    };
    let time = |u: &str| DURATION.contains(&u);
    unit.len() >= 3
        && quantities(text)
            .iter()
            .any(|(_, u)| *u == unit || time(u) && time(&unit))
}

/// Units of one kind of quantity, a length of time: "1 hour" and "30
/// minutes" are amounts of the same thing (a Duration listbox showing
/// "30 minutes" is the place for "1 hour"). Singular, as `quantities`
/// writes them.
const DURATION: &[&str] = &[
    "second", "sec", "minute", "min", "hour", "hr", "day", "week", "month", "year",
];

/// A value that is a number and one unit word ("240 litres", "90-day",
/// "1.5 kg"): the number as written and the unit, lower case, singular
/// ("litres" → "litre", "days" → "day").
fn quantity(v: &str) -> Option<(String, String)> {
    match quantities(v).as_slice() {
        [(n, u)] if !u.is_empty() => {
            let words = v
                .split(|c: char| c.is_whitespace() || c == '-')
                .filter(|w| !w.is_empty())
                .count();
            let joined = v.split_whitespace().count() == 1;
            (words <= 2 || joined).then(|| (n.clone(), u.clone()))
        }
        _ => None,
    }
}

/// Each number of a text with the letters right after it, joined or
/// after a space or dash ("240L", "240 litres", "90-day"), singular.
fn quantities(text: &str) -> Vec<(String, String)> {
    let t = text.to_lowercase();
    let chars: Vec<char> = t.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts = chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_alphanumeric());
        if !starts {
            i += 1;
            continue;
        }
        let mut n = String::new();
        while i < chars.len()
            && (chars[i].is_ascii_digit()
                || (chars[i] == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit)))
        {
            n.push(chars[i]);
            i += 1;
        }
        let mut j = i;
        if j < chars.len() && (chars[j] == ' ' || chars[j] == '-') {
            j += 1;
        }
        let mut u = String::new();
        while j < chars.len() && chars[j].is_alphabetic() {
            u.push(chars[j]);
            j += 1;
        }
        if u.len() > 2 {
            if let Some(one) = u.strip_suffix('s') {
                u = one.to_string();
            }
        }
        out.push((n, u));
    }
    out
}

/// The one option whose first word is written short for a word of the
/// value ("Exp. (2 days) — $14.95" for "express shipping", "Prio." for
/// "priority post"): option lists that describe each choice after a
/// short name.
fn led_by_short_word(opts: &[SelectOption], want: &str) -> Option<String> {
    let words: Vec<&str> = want.split(' ').collect();
    let fits: Vec<&SelectOption> = opts
        .iter()
        .filter(|o| {
            o.text
                .split_whitespace()
                .next()
                .is_some_and(|first| words.iter().any(|w| written_short_for(first, w)))
        })
        .collect();
    match fits.as_slice() {
        [one] => Some(one.text.clone()),
        _ => None,
    }
}

/// One word of letters and digits, joined by a dash or slash or not at
/// all ("RP-40718", "A12", "7KQM214"): a code, read whole.
fn is_code(v: &str) -> bool {
    let t = v.trim();
    !t.is_empty()
        && !t.contains(char::is_whitespace)
        && t.chars().any(|c| c.is_ascii_digit())
        && t.chars().any(char::is_alphabetic)
        && t.chars().all(|c| c.is_alphanumeric() || "-/".contains(c))
}

/// The one option that says the value in other words: the same time of
/// day written another way ("2 PM" for the option "2:00 PM"), or the
/// value's words shortened, word by word ("administrator" → "Admin",
/// "90 days" → "90 d", "Scotland" → "Scot."), as option lists abbreviate
/// to stay narrow. None when two options would fit.
fn same_time_or_short(opts: &[SelectOption], v: &str) -> Option<String> {
    let fits: Vec<&SelectOption> = match time(v.trim()) {
        Some(t) => opts
            .iter()
            .filter(|o| time(o.text.trim()) == Some(t))
            .collect(),
        None => opts.iter().filter(|o| abbreviates(&o.text, v)).collect(),
    };
    match fits.as_slice() {
        [one] => Some(one.text.clone()),
        _ => None,
    }
}

/// Each word of `short` is the start of the same word of `long` (as many
/// words; a number only as itself), one at least shorter: "Admin" of
/// "administrator", "90 d" of "90 days". One letter abbreviates only
/// beside a number ("d" of "days" after "90"), never alone.
pub fn abbreviates(short: &str, long: &str) -> bool {
    let (s, l) = (normalize(short), normalize(long));
    let (sw, lw): (Vec<&str>, Vec<&str>) = (s.split(' ').collect(), l.split(' ').collect());
    if s.is_empty() || sw.len() != lw.len() || s == l {
        return false;
    }
    let numbered = sw.iter().any(|w| w.bytes().all(|b| b.is_ascii_digit()));
    sw.iter().zip(&lw).all(|(a, b)| {
        let number = a.bytes().any(|c| c.is_ascii_digit());
        a == b || !number && (a.len() >= 3 || numbered) && b.len() > a.len() && b.starts_with(a)
    })
}

/// The field already shows this value (as the page would display it).
pub fn shows(e: &Observed, v: &str) -> bool {
    let have = e.value();
    if have.is_empty() || v.is_empty() {
        return false;
    }
    have == v || normalize(have) == normalize(&for_field(e, v)) || have == for_field(e, v)
}

#[cfg(test)]
mod tests;
