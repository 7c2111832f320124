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
/// survive ("$1,299.50" → "1299.50"). One loop with `text::normalize`
/// (`crate::text::normalize_numbers`).
pub fn normalize(s: &str) -> String {
    crate::text::normalize_numbers(s)
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
    /// Per element: the length of its normalised text (`normalize(e.text())`).
    text_lens: Vec<usize>,
}

impl Layout {
    pub fn new(page: &Page, task: &str) -> Layout {
        let text = format!(" {} ", normalize(&page.visible_text));
        let t = normalize(task);
        let instruction = (t.len() >= 12)
            .then(|| memchr::memmem::find(text.as_bytes(), t.as_bytes()).map(|p| (p, p + t.len())))
            .flatten();
        let mut order: Vec<usize> = (0..page.elements.len()).collect();
        order.sort_by(|&a, &b| reading_order(&page.elements[a], &page.elements[b]));
        let mut offsets = vec![None; page.elements.len()];
        let mut text_lens = vec![0; page.elements.len()];
        let mut pos = 0;
        let mut needle = String::new();
        let index = WordIndex::new(&text);
        // Never inside the instruction the page shows.
        let outside = |p: usize| instruction.is_none_or(|(s, e)| p < s || p >= e);
        for i in order {
            let full = normalize(page.elements[i].text());
            if full.is_empty() {
                continue;
            }
            text_lens[i] = full.len();
            // Its first six words (a snapshot may cut a long text short).
            let end = memchr::memchr_iter(b' ', full.as_bytes())
                .nth(5)
                .unwrap_or(full.len());
            needle.clear();
            needle.push(' ');
            needle.push_str(&full[..end]);
            needle.push(' ');
            // The first mention at or after the previous element's, else
            // the first anywhere (one scan finds both).
            let mut first = None;
            let mut after = None;
            // Non-overlapping matches, as `str::match_indices` gives them.
            for p in index.find_iter(&text, &needle) {
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
            text_lens,
        }
    }

    /// The length of element `i`'s normalised text (0 when it has none).
    pub fn text_len(&self, i: usize) -> usize {
        self.text_lens.get(i).copied().unwrap_or(0)
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
        self.text_between(start.saturating_sub(span), start)
    }

    /// The text between two offsets, each moved forward to a character's
    /// start (offsets computed in bytes may fall inside one) and clamped
    /// to the text.
    pub fn text_between(&self, from: usize, to: usize) -> &str {
        let boundary = |mut at: usize| {
            at = at.min(self.text.len());
            while !self.text.is_char_boundary(at) {
                at += 1;
            }
            at
        };
        let from = boundary(from);
        let to = boundary(to).max(from);
        self.text.get(from..to).unwrap_or_default()
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
        self.number_after(at + self.text_len(i), span)
    }
}

/// Where each word of the layout's text starts, by its first byte, to
/// find every label in it without building a substring searcher per label
/// (a `memmem` finder cost ~900 instructions to build, more than its
/// search: ~35 k per step on the bench's 40-element page, docs/benchmarks.md
/// "The planner's words, once per page"). The text is normalised (single
/// spaces) and padded with a space at both ends, so a needle `" w1 … "`
/// can only start at a space before a word that starts as `w1` does.
struct WordIndex {
    /// Offsets of the spaces before words, grouped by the word's first
    /// byte (a counting sort: ascending within each group).
    spaces: Vec<usize>,
    /// Group `b` is `spaces[from[b]..from[b + 1]]`.
    from: Vec<usize>,
}

impl WordIndex {
    fn new(text: &str) -> WordIndex {
        let b = text.as_bytes();
        // A space followed by a byte starts a word (the last space ends the text).
        let starts = || {
            b.iter()
                .enumerate()
                .filter(|&(_, &c)| c == b' ')
                .filter_map(|(p, _)| b.get(p + 1).map(|&f| (p, usize::from(f))))
        };
        let mut from = vec![0usize; 257];
        for (_, f) in starts() {
            from[f + 1] += 1;
        }
        for i in 1..from.len() {
            from[i] += from[i - 1];
        }
        let mut fill = from.clone();
        let mut spaces = vec![0; from[256]];
        for (p, f) in starts() {
            spaces[fill[f]] = p;
            fill[f] += 1;
        }
        WordIndex { spaces, from }
    }

    /// What `memchr::memmem::find_iter(text, needle)` answers for a needle
    /// `" w1 … "`: every match, in order, none overlapping the previous.
    fn find_iter<'s>(&'s self, text: &'s str, needle: &'s str) -> impl Iterator<Item = usize> + 's {
        let n = needle.as_bytes();
        let group = match n.get(1) {
            Some(&f) => &self.spaces[self.from[usize::from(f)]..self.from[usize::from(f) + 1]],
            None => &[][..],
        };
        let mut next = 0;
        group.iter().filter_map(move |&p| {
            let hit = p >= next && text.as_bytes()[p..].starts_with(n);
            hit.then(|| {
                next = p + n.len();
                p
            })
        })
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

mod distance;
mod duration;
mod moment;
pub use distance::distance_of;
pub use moment::{first_moment, Moment};

#[cfg(test)]
mod tests;
