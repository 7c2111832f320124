//! A switch or tick box named only by the words beside it: a settings
//! page's rows ("Product news" over "New features and offers", then a
//! `role=switch` button with no label, no `aria-label`, no text). Without
//! a name the task's "turn off Product news" matches nothing, or the
//! first switch whose id happens to share a word.
//!
//! The snapshot does not say where in the text an unnamed control stands
//! (it shows no words to find), nor whether its words come before it
//! ("Product news [switch]") or after it ("[x] Remember me"). So the rule
//! goes by the items of the text around a run of such controls: between
//! two elements that show words, a run of `n` unnamed toggles takes the
//! `n` items of the gap, in order, whichever side of each toggle they
//! stand. An item is a short line (at most four words, no sentence) with the
//! longer lines after it (its description). When the gap holds exactly
//! `n` items that have a description, those are the names (a heading or
//! a section's legend has none); else when it holds exactly `n` items,
//! those; else nothing — a wrong name is worse than none. Needs the
//! page's line breaks (`Page::line_starts`); a flat text names nothing.

use super::layout_gaps::name_runs;
use super::Page;
use sentience_snapshot_core::Observed;

/// At most this many words make an item's title.
const MAX_TITLE_WORDS: usize = 4;

/// Name every run of unnamed toggles of `page` by the items of the text
/// around it (the module comment), in `facts.aria_label` as a label would.
pub fn name_toggles(page: &mut Page) {
    if page.line_starts.is_empty() || !page.elements.iter().any(unnamed_toggle) {
        return;
    }
    let named = name_runs(page, unnamed_toggle, |lines, n| {
        titles_for(&items_of(lines), n).unwrap_or_default()
    });
    for (i, name) in named {
        page.elements[i].facts.aria_label = name;
    }
}

/// A switch, check box or radio with no words a person reads on it (an
/// id's words, `facts.hint`, are the developer's).
fn unnamed_toggle(e: &Observed) -> bool {
    e.is_checkable()
        && !e.is_field()
        && e.text().trim().is_empty()
        && e.facts.aria_label.trim().is_empty()
}

/// One item of a gap: its title line and whether longer lines follow it.
struct Item<'t> {
    title: &'t str,
    described: bool,
}

/// A gap's lines (`layout_gaps`) as items. Lines before the first title
/// belong to nothing.
fn items_of<'t>(lines: &[&'t str]) -> Vec<Item<'t>> {
    let mut items: Vec<Item<'t>> = Vec::new();
    for line in lines.iter().map(|l| l.trim()) {
        if line.is_empty() {
            continue;
        }
        if is_title(line) {
            items.push(Item {
                title: line.trim_end_matches(':').trim(),
                described: false,
            });
        } else if let Some(last) = items.last_mut() {
            last.described = true;
        }
    }
    items
}

/// A line that reads as a control's name: a few words, no sentence.
fn is_title(line: &str) -> bool {
    let l = line.trim_end_matches(':').trim();
    let words = l.split_whitespace().count();
    (1..=MAX_TITLE_WORDS).contains(&words) && !l.contains(['.', '!', '?', ';'])
}

/// The names of `n` toggles from the items of their gap, or `None`.
fn titles_for(items: &[Item<'_>], n: usize) -> Option<Vec<String>> {
    let described: Vec<&Item<'_>> = items.iter().filter(|i| i.described).collect();
    let chosen: Vec<&Item<'_>> = if described.len() == n {
        described
    } else if items.len() == n {
        items.iter().collect()
    } else {
        return None;
    };
    Some(chosen.iter().map(|i| i.title.to_string()).collect())
}

#[cfg(test)]
mod tests {
    use crate::page::fixtures::{el, page};
    use crate::page::Page;
    use sentience_snapshot_core::{Observed, Role};

    fn switch(id: u32, y: f64) -> Observed {
        let mut e = el(id, Role::Checkbox, "button", "", y);
        e.facts.aria_role = "switch".into();
        e.facts.hint = format!("toggle {id}");
        e
    }

    fn names(p: &Page) -> Vec<&str> {
        p.elements
            .iter()
            .map(|e| e.facts.aria_label.as_str())
            .collect()
    }

    /// A privacy page: each switch after a title and its description,
    /// under a heading and a section title that name nothing.
    #[test]
    fn switches_take_the_titles_of_the_rows_they_sit_in() {
        let p = page(
            "Home\nPrivacy\nWho can see you\nPublic profile\nAnyone on the web can find your page\nShow my city\nYour city appears beside your name\nRead receipts\nOthers see when you have opened their message\nDone",
            vec![
                el(1, Role::Link, "a", "Home", 0.0),
                switch(2, 120.0),
                switch(3, 170.0),
                switch(4, 220.0),
                el(5, Role::Button, "button", "Done", 300.0),
            ],
        );
        assert_eq!(
            names(&p),
            ["", "Public profile", "Show my city", "Read receipts", ""]
        );
    }

    /// Tick boxes whose words come after them ("[ ] Email me a copy"),
    /// with no descriptions: as many lines as boxes.
    #[test]
    fn boxes_before_their_words_take_them_in_order() {
        let mut a = el(2, Role::Checkbox, "input", "", 100.0);
        a.facts.input_type = "checkbox".into();
        let p = page(
            "Send\nEmail me a copy\nKeep this draft\nSubmit message",
            vec![
                el(1, Role::Link, "a", "Send", 0.0),
                a,
                el(3, Role::Checkbox, "input", "", 130.0),
                el(4, Role::Button, "button", "Submit message", 200.0),
            ],
        );
        assert_eq!(names(&p), ["", "Email me a copy", "Keep this draft", ""]);
    }

    #[test]
    fn a_gap_that_does_not_divide_names_nothing() {
        // Two switches, three short lines and no descriptions: which
        // line is whose cannot be told.
        let p = page(
            "Back\nAlerts\nSounds\nBadges\nClose",
            vec![
                el(1, Role::Link, "a", "Back", 0.0),
                switch(2, 100.0),
                switch(3, 130.0),
                el(4, Role::Button, "button", "Close", 200.0),
            ],
        );
        assert!(p.elements.iter().all(|e| e.facts.aria_label.is_empty()));
        // A flat text (no line breaks) names nothing either.
        let p = page(
            "Back Sounds Badges Close",
            vec![
                el(1, Role::Link, "a", "Back", 0.0),
                switch(2, 100.0),
                switch(3, 130.0),
                el(4, Role::Button, "button", "Close", 200.0),
            ],
        );
        assert!(p.elements.iter().all(|e| e.facts.aria_label.is_empty()));
    }

    /// The page's instruction names the button before the rows do: the
    /// button's later mention closes the gap (the walk `layout_gaps`
    /// shares with the label pass).
    #[test]
    fn the_button_named_in_the_instruction_closes_the_rows_after_it() {
        let p = page(
            "Choose your alerts, then press Done.\nAlerts\nPlay a sound when new messages arrive\nBadges\nShow a count on the app icon\nDone",
            vec![
                switch(1, 100.0),
                switch(2, 130.0),
                el(3, Role::Button, "button", "Done", 200.0),
            ],
        );
        assert_eq!(names(&p), ["Alerts", "Badges", ""]);
    }

    #[test]
    fn a_labelled_switch_keeps_its_label() {
        let mut s = switch(2, 100.0);
        s.facts.aria_label = "Dark mode".into();
        let p = page(
            "Back\nTheme\nUse dark colours at night\nClose",
            vec![
                el(1, Role::Link, "a", "Back", 0.0),
                s,
                el(3, Role::Button, "button", "Close", 200.0),
            ],
        );
        assert_eq!(p.elements[1].facts.aria_label, "Dark mode");
    }
}
