//! What a card shows of a property a superlative asks about, read from the
//! card's own text: a rating ("9.1 Superb", "4.6 / 5", "4.5 stars") for
//! "the highest guest rating", and a count out of a total ("17 of 40
//! left") for "the most seats left".

/// The numbers of a text with where each ends, commas inside them kept
/// ("2,314" is 2314), a decimal point kept when a digit follows it.
fn numbers(text: &str) -> Vec<(f64, usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() || (i > 0 && (b[i - 1].is_ascii_digit() || b[i - 1] == b'.')) {
            i += 1;
            continue;
        }
        let start = i;
        let mut s = String::new();
        while i < b.len() {
            let c = b[i];
            let digit_next = b.get(i + 1).is_some_and(u8::is_ascii_digit);
            if c.is_ascii_digit() {
                s.push(c as char);
            } else if (c == b',' && digit_next) || (c == b'.' && digit_next && !s.contains('.')) {
                if c == b'.' {
                    s.push('.');
                }
            } else {
                break;
            }
            i += 1;
        }
        if let Ok(n) = s.parse() {
            out.push((n, start, i));
        }
    }
    out
}

/// The first word after byte `at` (letters only, lower case).
fn word_after(text: &str, at: usize) -> String {
    text.get(at..)
        .unwrap_or_default()
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphabetic())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A rating: a number written with a decimal point, or said out of 5 or
/// 10 ("4 / 5", "8 out of 10") or in stars, between 0 and 10; not an
/// amount of money and not a measure with a unit after it ("1.2 km", "2.5
/// hours"). A count of reviews ("2,314 reviews") has no decimal point.
pub(super) fn rating_in(card: &str) -> Option<f64> {
    for (n, start, end) in numbers(card) {
        let before = card[..start].trim_end();
        if before.ends_with(['$', '€', '£', '¥']) || !(0.0..=10.0).contains(&n) {
            continue;
        }
        let after = card[end..].trim_start();
        let out_of = after.starts_with('/') || after.starts_with("out of");
        let next = word_after(card, end);
        let stars = matches!(next.as_str(), "star" | "stars") || after.starts_with('★');
        let decimal = card[start..end].contains('.');
        // A unit after the number makes it a measure, not a score.
        if decimal && !out_of && !stars && !next.is_empty() && !is_rating_word(&next) {
            continue;
        }
        if decimal || out_of || stars {
            return Some(n);
        }
    }
    None
}

/// Words a score is shown with that are not units ("9.1 Superb",
/// "4.6 rating", "8.0 Very good").
fn is_rating_word(w: &str) -> bool {
    matches!(
        w,
        "superb"
            | "excellent"
            | "exceptional"
            | "fabulous"
            | "wonderful"
            | "good"
            | "very"
            | "great"
            | "fair"
            | "poor"
            | "pleasant"
            | "okay"
            | "average"
            | "rating"
            | "rated"
            | "score"
            | "out"
    )
}

/// A count out of a total, "17 of 40 left", "3/12 available", "9 out of
/// 35": the count (the first number). Not a date ("12/07/2026": a total
/// followed by another slash) nor a time.
pub(super) fn count_of_total(card: &str) -> Option<f64> {
    let nums = numbers(card);
    for w in nums.windows(2) {
        let ((n, _, end), (_, start2, end2)) = (w[0], w[1]);
        let between = card[end..start2].trim().to_ascii_lowercase();
        let joined = matches!(between.as_str(), "of" | "/" | "out of");
        let date_like = card[end2..].starts_with('/') || card[..w[0].1].ends_with('/');
        if joined && !date_like {
            return Some(n);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rating_is_a_score_not_a_distance_a_count_or_a_price() {
        assert_eq!(
            rating_in("Alder Lodge 0.8 mi from the lake Very good 1,208 reviews 8.2 2 nights $310"),
            Some(8.2)
        );
        assert_eq!(rating_in("Tarn Cabins 4 / 5 (93 reviews) €80"), Some(4.0));
        assert_eq!(rating_in("Gull Hostel 3.5 stars $41.50"), Some(3.5));
        assert_eq!(rating_in("Moss Inn 2.5 km away $99.90"), None);
        assert_eq!(rating_in("Fern House 12 reviews"), None);
    }

    #[test]
    fn a_count_out_of_a_total_is_its_first_number() {
        assert_eq!(
            count_of_total("Lab B Fri 2:00-3:50 PM 12 of 24 left"),
            Some(12.0)
        );
        assert_eq!(count_of_total("Room 4 · 3/10 free"), Some(3.0));
        assert_eq!(count_of_total("due 12/07/2026"), None);
        assert_eq!(count_of_total("Pier 7 departs 9:40"), None);
    }
}
