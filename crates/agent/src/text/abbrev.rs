//! Labels written short: "Acct. no." for account number, "ABA / RTN" for
//! routing number, "Qty" for quantity, "Exp." for express, "SAV" for
//! savings, "Ref." for reference, "PO number" for purchase order number.
//! Forms abbreviate their labels and options to stay narrow; a task says
//! the words whole.

/// Abbreviations that are conventions rather than shortened spellings:
/// "no." / "nr" / "#" for number (Latin *numero*).
const CONVENTIONS: &[(&str, &str)] = &[("no", "number"), ("nr", "number"), ("#", "number")];

/// A word of a label as written that reads as an abbreviation: it ends
/// with a full stop ("Acct.", "Exp."), is written in capitals ("RTN",
/// "SAV"), or has no vowel after its first letter ("Qty", "Amt"). Plain
/// words ("name", "type") are read as themselves.
fn looks_short(raw: &str) -> bool {
    let w = raw.trim_end_matches('.');
    let letters = w.chars().all(char::is_alphabetic) && !w.is_empty();
    let dotted = raw.ends_with('.') && letters;
    let capitals = letters && w.chars().count() >= 2 && w.chars().all(|c| c.is_uppercase());
    let no_vowel =
        letters && w.chars().count() >= 2 && !w.chars().skip(1).any(|c| "aeiouAEIOU".contains(c));
    dotted || capitals || no_vowel
}

/// `short` (lower case, no stop) abbreviates `long`: a convention, or
/// its letters are `long`'s in order starting with its first ("acct" of
/// account, "rtn" of routing, "qty" of quantity, "sav" of savings), at
/// least two and fewer than `long` has.
fn shortens(short: &str, long: &str) -> bool {
    if CONVENTIONS.iter().any(|(s, l)| *s == short && *l == long) {
        return true;
    }
    let (s, l): (Vec<char>, Vec<char>) = (short.chars().collect(), long.chars().collect());
    if s.len() < 2 || s.len() >= l.len() || s[0] != l[0] {
        return false;
    }
    let mut rest = l.iter();
    s.iter().all(|c| rest.any(|x| x == c))
}

/// `raw` (a word as the page writes it) is written short for `long` (a
/// word as the task says it, lower case): "Exp." for express, "SAV" for
/// savings.
pub fn written_short_for(raw: &str, long: &str) -> bool {
    looks_short(raw) && shortens(&raw.trim_end_matches('.').to_lowercase(), long)
}

/// How many of `words`, from the first, `short` abbreviates together:
/// its letters cut into one piece per word, each piece starting with its
/// word's first letter and the rest of its letters in that word in order
/// ("rt"+"n" of routing number, "p"+"o" of purchase order). One word
/// needs the whole rule of `shortens`; the largest count wins.
fn spans(short: &str, words: &[&str]) -> Option<usize> {
    let best = (1..=words.len().min(short.chars().count()))
        .rev()
        .find(|&n| split_over(short, &words[..n]));
    best.filter(|&n| n > 1)
        .or_else(|| words.first().filter(|w| shortens(short, w)).map(|_| 1))
}

/// `short` cut into `words.len()` pieces, each a subsequence of its word
/// that starts with the word's first letter.
fn split_over(short: &str, words: &[&str]) -> bool {
    let Some((word, rest)) = words.split_first() else {
        return short.is_empty();
    };
    let first = word.chars().next();
    if short.chars().next() != first || first.is_none() {
        return false;
    }
    // Try every length of this word's piece, longest first.
    let chars: Vec<char> = short.chars().collect();
    (1..=chars.len() - rest.len().min(chars.len() - 1))
        .rev()
        .any(|len| {
            let piece: String = chars[..len].iter().collect();
            let mut letters = word.chars();
            let inside = piece.chars().all(|c| letters.any(|x| x == c));
            let tail: String = chars[len..].iter().collect();
            inside && split_over(&tail, rest)
        })
}

/// How many of `words` (a task's words for a field, lower case) the
/// label `raw` (as the page writes it) says whole or abbreviated: a word
/// of the label equal to one of them, abbreviating one, or the initials
/// of a run of them ("PO" of "purchase order"). Only a label with at
/// least one abbreviation counts (None otherwise: the ordinary word
/// matching reads it).
pub fn abbreviated_words(raw: &str, words: &[&str]) -> Option<usize> {
    let label: Vec<&str> = raw
        .split(|c: char| c.is_whitespace() || "/()[]:,-".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    let mut said = vec![false; words.len()];
    let mut short = false;
    for raw_word in &label {
        let lw = raw_word.trim_end_matches('.').to_lowercase();
        if let Some(k) = words.iter().position(|w| *w == lw) {
            said[k] = true;
            continue;
        }
        if !looks_short(raw_word) && !CONVENTIONS.iter().any(|(s, _)| *s == lw) {
            continue;
        }
        // The longest run of the task's words it shortens, from the
        // first word not yet said: "Acct" of account, "RTN" of routing
        // number, "PO" of purchase order.
        let best = (0..words.len())
            .filter(|&k| !said[k])
            .filter_map(|k| spans(&lw, &words[k..]).map(|n| (k, n)))
            .max_by_key(|&(k, n)| (n, std::cmp::Reverse(k)));
        if let Some((k, n)) = best {
            said[k..k + n].iter_mut().for_each(|s| *s = true);
            short = true;
        }
    }
    short.then(|| said.iter().filter(|s| **s).count())
}

#[cfg(test)]
mod tests {
    use super::abbreviated_words;

    #[test]
    fn a_label_written_short_says_the_words_whole() {
        // (made-up labels, none a benchmark page's)
        assert_eq!(
            abbreviated_words("Mbr. no.", &["member", "number"]),
            Some(2)
        );
        assert_eq!(abbreviated_words("BSB / SWT", &["switch", "code"]), Some(1));
        assert_eq!(abbreviated_words("Qty", &["quantity"]), Some(1));
        assert_eq!(abbreviated_words("Dept.", &["department"]), Some(1));
        assert_eq!(
            abbreviated_words("PO ref.", &["purchase", "order", "reference"]),
            Some(3)
        );
        assert_eq!(
            abbreviated_words("Tel. (home)", &["home", "telephone"]),
            Some(2)
        );
    }

    #[test]
    fn plain_words_and_other_words_are_no_abbreviation() {
        // Whole words: the ordinary matching reads them.
        assert_eq!(
            abbreviated_words("Member number", &["member", "number"]),
            None
        );
        // A short word whose letters are not the task word's.
        assert_eq!(abbreviated_words("Qty", &["price"]), None);
        assert_eq!(
            abbreviated_words("Acct. type", &["routing", "number"]),
            None
        );
        // The first letter must agree ("RTN" is never "transit").
        assert_eq!(abbreviated_words("RTN", &["transit"]), None);
        // A plain lower-case word is read as itself, not as a shortening.
        assert_eq!(abbreviated_words("Note", &["notification"]), None);
    }
}
