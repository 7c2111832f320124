//! Moments written on a page ("6:05 AM", "Mar 2, 2026", "2026-03-02"):
//! what "the earliest flight" and "the newest article" compare. A card's
//! price is no moment, so these never fall back on the price rule unless
//! no card shows one.

use super::Layout;
use crate::planner::values::{date, time};

/// A point in time read off a page, by the kind that can be compared: a
/// calendar day, or a time of day (minutes after midnight).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Moment {
    Day(f64),
    Clock(f64),
}

impl Moment {
    /// Its place on its own scale.
    pub fn value(self) -> f64 {
        match self {
            Moment::Day(v) | Moment::Clock(v) => v,
        }
    }

    /// Whether two moments can be compared (both days, or both clock times).
    pub fn same_kind(self, other: Moment) -> bool {
        matches!(
            (self, other),
            (Moment::Day(_), Moment::Day(_)) | (Moment::Clock(_), Moment::Clock(_))
        )
    }
}

fn is_meridiem(w: &str) -> bool {
    matches!(w.trim_end_matches('.'), "am" | "pm" | "a.m" | "p.m")
}

/// The first moment in a text: a date (a day is more telling than a time
/// beside it), else a time of day written with a colon or an am / pm.
pub fn first_moment(text: &str) -> Option<Moment> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == ',' || c == '·' || c == '–' || c == '|')
        .filter(|w| !w.is_empty())
        .collect();
    let day = |(y, m, d): (u32, u32, u32)| Moment::Day(f64::from(y * 10_000 + m * 100 + d));
    for i in 0..words.len() {
        if words[i].contains(['/', '-']) {
            if let Some(d) = date(words[i]) {
                return Some(day(d));
            }
        }
        if i + 3 <= words.len() {
            if let Some(d) = date(&words[i..i + 3].join(" ")) {
                return Some(day(d));
            }
        }
    }
    for i in 0..words.len() {
        let w = words[i];
        if !w.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let next = words.get(i + 1).copied().filter(|n| is_meridiem(n));
        let said = match next {
            Some(n) => format!("{w} {}", n.replace('.', "")),
            None if w.contains(':') => w.to_string(),
            None => continue,
        };
        if let Some((h, m)) = time(&said) {
            return Some(Moment::Clock(f64::from(h * 60 + m)));
        }
    }
    None
}

impl Layout {
    /// The first moment written between two offsets of the text.
    pub fn moment_in(&self, from: usize, to: usize) -> Option<Moment> {
        first_moment(self.text_between(from, to))
    }
}

#[cfg(test)]
mod tests {
    use super::{first_moment, Moment};

    #[test]
    fn moments_as_pages_write_them() {
        assert_eq!(
            first_moment("6:05 AM – 7:58 AM SK 214 · 1h 53m · Nonstop $148"),
            Some(Moment::Clock(365.0))
        );
        assert_eq!(
            first_moment("1:15 PM – 4:55 PM"),
            Some(Moment::Clock(795.0))
        );
        assert_eq!(first_moment("departs 19:30"), Some(Moment::Clock(1170.0)));
        assert_eq!(first_moment("leaves at 7 pm"), Some(Moment::Clock(1140.0)));
        assert_eq!(
            first_moment("Use backup codes Updated Mar 2, 2026"),
            Some(Moment::Day(20_260_302.0))
        );
        assert_eq!(
            first_moment("posted 2025-11-14 at 9:00 AM"),
            Some(Moment::Day(20_251_114.0))
        );
        assert_eq!(
            first_moment("14 March 2025"),
            Some(Moment::Day(20_250_314.0))
        );
        assert_eq!(first_moment("Basic 2 · 2 GB RAM · $12/mo"), None);
        assert_eq!(first_moment("1h 54m Nonstop $129"), None);
    }
}
