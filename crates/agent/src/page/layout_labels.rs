//! A field's name read off the layout, as a person reads a form that has
//! no `<label for>`, no `aria-label` and no placeholder: the words just
//! before it on the page ("Departure Date" over a date box, "Genre:" left
//! of a text box in a row). Many real forms are built this way (table
//! forms with a `<th>` per row, a `<div>` of text above each box, search
//! bars in page builders), and every surface meets them: without a name a
//! field can only be chosen by the shape of its value, so a date goes into
//! "From" and "Holloway" into whichever box comes first.
//!
//! Only the page's visible text in reading order is at hand (the snapshot
//! lists what one can act on, not the text around it), so the rule is
//! deliberately narrow: the elements that show words are found in the text
//! in reading order (`layout_gaps`); between two of them, a run of unnamed text boxes
//! takes the words that end the gap — one box takes the last few words
//! (after the last sentence mark), several boxes take as many
//! colon-ended labels ("Genre: Director: Year:") and nothing when the
//! text does not divide that way (a guess would be worse than no name).

use super::layout_gaps::name_runs;
use super::Page;
use sentience_snapshot_core::Observed;

/// At most this many words make a label read off the layout.
const MAX_WORDS: usize = 3;

/// Name every unnamed text box of `page` by the words before it, where
/// the layout says so unambiguously (the module comment). The name goes
/// where a label would (`facts.aria_label`), so everything that matches
/// fields by their label sees it.
pub fn name_by_layout(page: &mut Page) {
    if page.visible_text.is_empty() || !page.elements.iter().any(unnamed) {
        return;
    }
    for (i, name) in name_runs(page, unnamed, split_gap) {
        page.elements[i].facts.aria_label = name;
    }
}

/// A text box with no name a person can read (its `name` attribute is the
/// developer's, not the reader's).
fn unnamed(e: &Observed) -> bool {
    e.is_text_entry()
        && e.facts.aria_label.trim().is_empty()
        && e.facts.placeholder.trim().is_empty()
        && (e.text().trim().is_empty() || e.text() == e.value())
}

/// A line that reads as a field's label: a few words, no sentence.
fn label_line(line: &str) -> Option<String> {
    let l = line.trim().trim_end_matches(':').trim();
    let words = l.split_whitespace().count();
    let sentence = l.contains(['.', '!', '?', ';']);
    ((1..=MAX_WORDS).contains(&words) && !sentence).then(|| l.to_string())
}

/// The names of `n` boxes from the words of the gap before them (in
/// order), or none when the gap does not say. With line breaks, `n` boxes
/// after `n` short lines take a line each (a form of rows, its labels
/// before or after each box: "Genre\nDirector\nYear"); else by words.
fn split_gap(lines: &[&str], n: usize) -> Vec<String> {
    let full: Vec<&str> = lines
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .collect();
    if full.len() >= 2 && full.len() >= n {
        let named: Vec<String> = full[full.len() - n..]
            .iter()
            .filter_map(|l| label_line(l))
            .collect();
        if named.len() == n {
            return named;
        }
    }
    let joined = lines.concat();
    let gap = joined.trim();
    if gap.is_empty() {
        return Vec::new();
    }
    if n == 1 {
        // The words after the last sentence mark (a heading or the
        // instruction before it is not its name), the last few of them.
        let body = gap.trim_end_matches([':', ' ']);
        let tail = body
            .rfind(['.', '!', '?', ':', ';'])
            .map_or(body, |p| &body[p + 1..]);
        let words: Vec<&str> = tail.split_whitespace().collect();
        let name = words[words.len().saturating_sub(MAX_WORDS)..].join(" ");
        return if name.is_empty() {
            Vec::new()
        } else {
            vec![name]
        };
    }
    // Several boxes: as many colon-ended labels at the end of the gap.
    if !gap.ends_with(':') {
        return Vec::new();
    }
    let parts: Vec<&str> = gap.split(':').map(str::trim).collect();
    // "… 2011. Genre: Director: Year:" → ["… 2011. Genre", "Director", "Year", ""].
    let labels = &parts[..parts.len() - 1];
    if labels.len() < n {
        return Vec::new();
    }
    let mut out: Vec<String> = labels[labels.len() - n..]
        .iter()
        .map(|s| {
            let tail = s.rfind(['.', '!', '?', ';']).map_or(*s, |p| &s[p + 1..]);
            let ws: Vec<&str> = tail.split_whitespace().collect();
            ws[ws.len().saturating_sub(MAX_WORDS)..].join(" ")
        })
        .collect();
    if out.iter().any(String::is_empty) {
        out.clear();
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::page::fixtures::{el, page};
    use sentience_snapshot_core::Role;

    #[test]
    fn a_box_under_a_heading_takes_the_words_just_before_it() {
        let mut from = el(1, Role::Textbox, "input", "", 40.0);
        from.facts.placeholder = "From:".into();
        let p = page(
            "Book the shortest flight. Book Your One-Way Flight Departure Date Search",
            vec![
                from,
                el(2, Role::Textbox, "input", "", 80.0),
                el(3, Role::Button, "button", "Search", 120.0),
            ],
        );
        assert_eq!(
            p.elements[0].facts.aria_label, "",
            "a placeholder is a name"
        );
        assert_eq!(p.elements[1].facts.aria_label, "Flight Departure Date");
    }

    #[test]
    fn rows_of_boxes_take_their_colon_labels_in_order() {
        let p = page(
            "Search for drama movies directed by Holloway from year 2011. Genre: Director: Year: Submit",
            vec![
                el(1, Role::Textbox, "input", "", 40.0),
                el(2, Role::Textbox, "input", "", 60.0),
                el(3, Role::Textbox, "input", "", 80.0),
                el(4, Role::Button, "button", "Submit", 100.0),
            ],
        );
        let names: Vec<&str> = p.elements[..3]
            .iter()
            .map(|e| e.facts.aria_label.as_str())
            .collect();
        assert_eq!(names, ["Genre", "Director", "Year"]);
    }

    #[test]
    fn words_that_do_not_divide_name_nothing() {
        let p = page(
            "Movie Search Genre Director Year Submit",
            vec![
                el(1, Role::Textbox, "input", "", 40.0),
                el(2, Role::Textbox, "input", "", 60.0),
                el(3, Role::Button, "button", "Submit", 100.0),
            ],
        );
        assert!(p.elements.iter().all(|e| e.facts.aria_label.is_empty()));
    }

    /// The same rows with the line breaks the producer keeps (a `<th>`
    /// per row, or a label after each box): each box takes its line, where
    /// the flat words did not divide.
    #[test]
    fn rows_of_boxes_take_their_lines_in_order() {
        let boxes = || {
            vec![
                el(1, Role::Textbox, "input", "", 40.0),
                el(2, Role::Textbox, "input", "", 60.0),
                el(3, Role::Textbox, "input", "", 80.0),
                el(4, Role::Button, "button", "Submit", 100.0),
            ]
        };
        let p = page(
            "Search for drama movies directed by Holloway from year 2011.\nMovie Search\nDirector\nGenre\nYear\nSubmit",
            boxes(),
        );
        let names: Vec<&str> = p.elements[..3]
            .iter()
            .map(|e| e.facts.aria_label.as_str())
            .collect();
        assert_eq!(names, ["Director", "Genre", "Year"]);
        assert_eq!(
            p.visible_text,
            "Search for drama movies directed by Holloway from year 2011. Movie Search Director Genre Year Submit",
            "the text stays one line"
        );
        // A line that is a sentence is no label: nothing is guessed.
        let p = page(
            "Movie Search\nDirector\nPick a genre below.\nYear\nSubmit",
            boxes(),
        );
        assert!(p.elements.iter().all(|e| e.facts.aria_label.is_empty()));
    }

    /// The page shows the instruction, which starts with the button's own
    /// word: the button's mention after the labels closes the gap.
    #[test]
    fn the_button_mentioned_in_the_instruction_is_placed_after_the_labels() {
        let p = page(
            "Search for drama movies directed by Holloway from year 2011.\nGenre\nYear\nDirector Name\nSearch",
            vec![
                el(1, Role::Textbox, "input", "", 40.0),
                el(2, Role::Textbox, "input", "", 60.0),
                el(3, Role::Textbox, "input", "", 80.0),
                el(4, Role::Button, "button", "Search", 100.0),
            ],
        );
        let names: Vec<&str> = p.elements[..3]
            .iter()
            .map(|e| e.facts.aria_label.as_str())
            .collect();
        assert_eq!(names, ["Genre", "Year", "Director Name"]);
    }

    #[test]
    fn one_box_takes_its_own_line_not_the_heading_before_it() {
        let p = page(
            "Book Your One-Way Flight\nDeparture Date\nSearch",
            vec![
                el(1, Role::Textbox, "input", "", 80.0),
                el(2, Role::Button, "button", "Search", 120.0),
            ],
        );
        assert_eq!(p.elements[0].facts.aria_label, "Departure Date");
    }

    #[test]
    fn a_labelled_box_keeps_its_label() {
        let mut named = el(1, Role::Textbox, "input", "", 40.0);
        named.facts.aria_label = "Email".into();
        let p = page(
            "Sign in Work address Continue",
            vec![named, el(2, Role::Button, "button", "Continue", 80.0)],
        );
        assert_eq!(p.elements[0].facts.aria_label, "Email");
    }
}
