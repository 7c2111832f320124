//! The page's words in reading order, with each element placed among them.
//! A snapshot lists only what one can act on; the words around those
//! elements (a product's name above its "Add to cart", a sender beside a
//! subject, a price in a plan card) are in the page's visible text. Each
//! element is found in that text in reading order, so "the button for X"
//! is the first such button after X, "the 2nd email from Bob" the first
//! link after Bob's second mention, and "Premium costs less than $20"
//! reads the first price after "Premium".

use crate::page::Page;
use sentience_snapshot_core::Observed;

/// Lower case, words separated by single spaces, punctuation dropped —
/// except a decimal point or thousands comma between digits, so prices
/// survive ("$1,299.50" → "1299.50").
pub fn normalize(s: &str) -> String {
    // One pass with the previous and next character at hand (this runs on
    // every label and on the page's whole text at each step: no `Vec<char>`).
    let mut out = String::with_capacity(s.len());
    let mut space = true;
    let mut prev: Option<char> = None;
    let mut chars = s.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch.is_ascii_alphanumeric() || ch == '@' {
            out.push(ch.to_ascii_lowercase());
            space = false;
        } else if !ch.is_ascii() && ch.is_alphanumeric() {
            out.extend(ch.to_lowercase());
            space = false;
        } else if (ch == '.' || ch == ',')
            && prev.is_some_and(|p| p.is_ascii_digit())
            && chars.peek().is_some_and(char::is_ascii_digit)
        {
            if ch == '.' {
                out.push('.');
            }
        } else if !space {
            out.push(' ');
            space = true;
        }
        prev = Some(ch);
    }
    if out.ends_with(' ') {
        out.pop();
    }
    out
}

pub struct Layout {
    /// The visible text, normalised (lower case, punctuation as spaces),
    /// with a space at both ends so words match on boundaries.
    text: String,
    /// Where the page shows the task itself (some pages do): mentions there
    /// are no evidence of anything.
    instruction: Option<(usize, usize)>,
    /// Per element (by index in `page.elements`): where its label starts in `text`.
    offsets: Vec<Option<usize>>,
}

impl Layout {
    pub fn new(page: &Page, task: &str) -> Layout {
        let text = format!(" {} ", normalize(&page.visible_text));
        let t = normalize(task);
        let instruction = (t.len() >= 12)
            .then(|| text.find(&t).map(|p| (p, p + t.len())))
            .flatten();
        let mut order: Vec<usize> = (0..page.elements.len()).collect();
        order.sort_by(|&a, &b| reading_order(&page.elements[a], &page.elements[b]));
        let mut offsets = vec![None; page.elements.len()];
        let mut pos = 0;
        let mut needle = String::new();
        // Never inside the instruction the page shows.
        let outside = |p: usize| instruction.is_none_or(|(s, e)| p < s || p >= e);
        for i in order {
            let full = normalize(page.elements[i].text());
            if full.is_empty() {
                continue;
            }
            // Its first six words (a snapshot may cut a long text short).
            let end = full
                .match_indices(' ')
                .nth(5)
                .map_or(full.len(), |(p, _)| p);
            needle.clear();
            needle.push(' ');
            needle.push_str(&full[..end]);
            needle.push(' ');
            // The first mention at or after the previous element's, else
            // the first anywhere (one scan finds both).
            let mut first = None;
            let mut after = None;
            // Non-overlapping matches, as `str::match_indices` gives them.
            for p in memchr::memmem::find_iter(text.as_bytes(), needle.as_bytes()) {
                if !outside(p) {
                    continue;
                }
                first.get_or_insert(p);
                if p >= pos {
                    after = Some(p);
                    break;
                }
            }
            if let Some(p) = after {
                offsets[i] = Some(p + 1);
                pos = p + 1;
            } else if let Some(p) = first {
                offsets[i] = Some(p + 1);
            }
        }
        Layout {
            text,
            instruction,
            offsets,
        }
    }

    /// Where element `i` of the page stands in the text.
    pub fn offset(&self, i: usize) -> Option<usize> {
        self.offsets.get(i).copied().flatten()
    }

    /// Every place the words of `anchor` appear (whole words). When the
    /// whole phrase is not there, its longest leading part that is ("Q3
    /// plan draft" → "Q3 plan").
    pub fn occurrences(&self, anchor: &str) -> Vec<(usize, usize)> {
        let words: Vec<String> = normalize(anchor)
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect();
        let find = |ws: &[String]| -> Vec<(usize, usize)> {
            if ws.is_empty() {
                return Vec::new();
            }
            let needle = format!(" {} ", ws.join(" "));
            self.text
                .match_indices(&needle)
                .map(|(p, m)| (p + 1, p + m.len() - 1))
                .filter(|(p, _)| self.instruction.is_none_or(|(s, e)| *p < s || *p >= e))
                .collect()
        };
        let whole = find(&words);
        if !whole.is_empty() || words.len() <= 1 {
            return whole;
        }
        // An identifier is never dropped ("invoice INV-2043" is not any
        // "invoice"), and a single short common word is no anchor.
        let numbered = |w: &String| w.chars().any(|c| c.is_ascii_digit());
        let ids = words.iter().filter(|w| numbered(w)).count();
        let usable = |ws: &[String]| {
            ws.iter().filter(|w| numbered(w)).count() == ids && !(ws.len() == 1 && ws[0].len() < 4)
        };
        // The longest part of the phrase the page shows, from its start
        // ("Q3 plan" of "Q3 plan draft") or from its end ("Denver" of
        // "the order shipped to Denver"); of two as long, the rarer.
        let n_all = words.len();
        for n in (1..n_all).rev() {
            let (lead, tail) = (&words[..n], &words[n_all - n..]);
            let lead = if usable(lead) { find(lead) } else { Vec::new() };
            let tail = if usable(tail) { find(tail) } else { Vec::new() };
            match (lead.is_empty(), tail.is_empty()) {
                (false, false) if tail.len() < lead.len() => return tail,
                (false, _) => return lead,
                (true, false) => return tail,
                (true, true) => {}
            }
        }
        // The identifier alone ("INV-2043" as the page shows it).
        match (
            words.iter().position(numbered),
            words.iter().rposition(numbered),
        ) {
            (Some(a), Some(b)) => find(&words[a..=b]),
            _ => Vec::new(),
        }
    }

    /// The words just before the first mention of `label` (a heading over
    /// a field: "Search the catalogue … Title, author or subject").
    pub fn before(&self, label: &str, span: usize) -> &str {
        let Some(&(start, _)) = self.occurrences(label).first() else {
            return "";
        };
        let from = start.saturating_sub(span);
        let mut from = from;
        while !self.text.is_char_boundary(from) {
            from += 1;
        }
        self.text.get(from..start).unwrap_or_default()
    }

    /// The text is there (whole words).
    pub fn shows(&self, words: &str) -> bool {
        let n = normalize(words);
        !n.is_empty() && self.text.contains(&format!(" {n} "))
    }

    /// The first number after `from` (a normalised offset) within `span` characters.
    pub fn number_after(&self, from: usize, span: usize) -> Option<f64> {
        let end = (from + span).min(self.text.len());
        let slice = self.text.get(from..end)?;
        slice
            .split(' ')
            .find(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()))
            .and_then(|w| {
                w.trim_end_matches(|c: char| !c.is_ascii_digit())
                    .parse()
                    .ok()
            })
    }

    /// The words after `from`, up to `span` characters (answers read off the page).
    pub fn words_after(&self, from: usize, span: usize) -> Vec<&str> {
        let end = (from + span).min(self.text.len());
        self.text
            .get(from..end)
            .unwrap_or_default()
            .split(' ')
            .filter(|w| !w.is_empty())
            .collect()
    }

    /// The number of an element: in its own label, else the first one
    /// after it (before the next element of the same kind starts).
    pub fn number_of(&self, page: &Page, i: usize, span: usize) -> Option<f64> {
        let e = &page.elements[i];
        if let Some(n) = number_in(e.label()) {
            return Some(n);
        }
        let at = self.offset(i)?;
        self.number_after(at + normalize(e.text()).len(), span)
    }
}

/// The first number written in a text ("$3.49" → 3.49, "Order #1042" → 1042).
pub fn number_in(s: &str) -> Option<f64> {
    let mut cur = String::new();
    let mut seen = false;
    for c in s.chars() {
        if c.is_ascii_digit() || (c == '.' && seen) {
            cur.push(c);
            seen = true;
        } else if c == ',' && seen {
            continue;
        } else if seen {
            break;
        }
    }
    cur.trim_end_matches('.').parse().ok()
}

/// Reading order: top to bottom, then left to right (rows within 6 px);
/// elements without a box after those with one, in snapshot order.
pub fn reading_order(a: &Observed, b: &Observed) -> std::cmp::Ordering {
    let key = |e: &Observed| {
        if e.has_box() {
            (e.element.bbox.y, e.element.bbox.x)
        } else {
            (f64::MAX, 0.0)
        }
    };
    let ((ay, ax), (by, bx)) = (key(a), key(b));
    if (ay - by).abs() > 6.0 {
        ay.total_cmp(&by)
    } else {
        ax.total_cmp(&bx)
    }
}

mod duration;

#[cfg(test)]
mod tests;
