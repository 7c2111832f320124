//! Durations written on a page ("5h 30m", "2 hr 15 min", "1 hour 5
//! minutes", "45 min"): what "the shortest flight" compares.

use super::Layout;

/// Minutes per unit word (the text is normalised: lower case, words).
fn unit(w: &str) -> Option<f64> {
    match w {
        "d" | "day" | "days" => Some(1440.0),
        "h" | "hr" | "hrs" | "hour" | "hours" => Some(60.0),
        "m" | "min" | "mins" | "minute" | "minutes" => Some(1.0),
        _ => None,
    }
}

/// A number with its unit in one word ("5h") or in two ("5 h").
fn amount(w: &str, next: Option<&str>) -> Option<(f64, bool)> {
    let digits = w.find(|c: char| !c.is_ascii_digit()).unwrap_or(w.len());
    if digits == 0 {
        return None;
    }
    let n: f64 = w[..digits].parse().ok()?;
    if digits < w.len() {
        return Some((n * unit(&w[digits..])?, false));
    }
    Some((n * unit(next?)?, true))
}

/// The last duration in `words`, in minutes: a run of amounts ("5h 30m").
pub(super) fn last_duration(words: &[&str]) -> Option<f64> {
    let mut last = None;
    let mut i = 0;
    while i < words.len() {
        let mut total = 0.0;
        let mut j = i;
        while let Some((m, two)) = amount(words[j], words.get(j + 1).copied()) {
            total += m;
            j += if two { 2 } else { 1 };
            if j >= words.len() {
                break;
            }
        }
        if j > i {
            last = Some(total);
            i = j;
        } else {
            i += 1;
        }
    }
    last
}

impl Layout {
    /// The last duration written between two offsets of the text, in minutes.
    pub fn duration_in(&self, from: usize, to: usize) -> Option<f64> {
        let words: Vec<&str> = self.text_between(from, to).split(' ').collect();
        last_duration(&words)
    }
}

#[cfg(test)]
mod tests {
    use super::last_duration;

    fn d(s: &str) -> Option<f64> {
        last_duration(&s.split(' ').collect::<Vec<_>>())
    }

    #[test]
    fn durations_as_pages_write_them() {
        assert_eq!(d("duration 5h 30m book flight for 677"), Some(330.0));
        assert_eq!(d("takes 2 hr 15 min"), Some(135.0));
        assert_eq!(d("1 hour 5 minutes"), Some(65.0));
        assert_eq!(d("45 min then 1h"), Some(60.0));
        assert_eq!(d("book flight for 677"), None);
        assert_eq!(d("12 19 2016"), None);
    }
}
