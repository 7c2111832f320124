//! Distances written on a page ("0.9 mi", "3 km", "450 m", "12 miles
//! away"): what "the nearest clinic" / "the closest store" compares, in
//! metres, so that cards in miles and in kilometres compare alike.

use super::Layout;

/// Metres per unit word (the text is normalised: lower case, words).
fn metres(unit: &str) -> Option<f64> {
    match unit {
        "mi" | "mile" | "miles" => Some(1609.344),
        "km" | "kms" | "kilometre" | "kilometres" | "kilometer" | "kilometers" => Some(1000.0),
        "m" | "metre" | "metres" | "meter" | "meters" => Some(1.0),
        "ft" | "foot" | "feet" => Some(0.3048),
        "yd" | "yds" | "yard" | "yards" => Some(0.9144),
        _ => None,
    }
}

/// The first distance in `words`: a number with its unit in one word
/// ("4.8mi") or in the next ("4.8 mi").
pub(super) fn first_distance(words: &[&str]) -> Option<f64> {
    words.iter().enumerate().find_map(|(i, w)| {
        let digits = w
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(w.len());
        if digits == 0 {
            return None;
        }
        let n: f64 = w[..digits].trim_end_matches('.').parse().ok()?;
        let unit = if digits < w.len() {
            &w[digits..]
        } else {
            words.get(i + 1)?
        };
        Some(n * metres(unit)?)
    })
}

/// The first distance in a piece of the page's own text (not normalised).
pub fn distance_of(text: &str) -> Option<f64> {
    let norm = crate::text::normalize_numbers(text);
    first_distance(&norm.split(' ').collect::<Vec<_>>())
}

impl Layout {
    /// The first distance written between two offsets of the text, in metres.
    pub fn distance_in(&self, from: usize, to: usize) -> Option<f64> {
        let words: Vec<&str> = self.text_between(from, to).split(' ').collect();
        first_distance(&words)
    }
}

#[cfg(test)]
mod tests {
    use super::first_distance;

    fn d(s: &str) -> Option<f64> {
        first_distance(&s.split(' ').collect::<Vec<_>>())
    }

    #[test]
    fn distances_as_pages_write_them() {
        assert_eq!(
            d("eastside medical 0.9 mi next opening dec 9"),
            Some(0.9 * 1609.344)
        );
        assert_eq!(d("3 km away"), Some(3000.0));
        assert_eq!(d("store 450m from you"), Some(450.0));
        assert_eq!(d("12 miles"), Some(12.0 * 1609.344));
        // A price, a count or a duration is no distance.
        assert_eq!(d("from 40 per month"), None);
        assert_eq!(d("3 of 40 seats left"), None);
        assert_eq!(d("dermatology harbor clinic"), None);
    }
}
