//! A search term whose parts have roles, split into the fields of a form
//! with several boxes: "flights from Boston to San Francisco on
//! 10/16/2016" on a form whose boxes say From and To, "drama movies
//! directed by Holloway from year 2011" on one whose boxes say Genre,
//! Director and Year. A person fills each box with the part of the
//! sentence that names it; one search box still takes the whole term.

use crate::intent::Value;
use crate::planner::context::Cx;
use crate::task::FieldKind;
use sentience_snapshot_core::Observed;

/// Words that give the value after them a role a field may be labelled
/// with ("From", "To", "Check-in on"…).
const ROLE_WORDS: &[&str] = &[
    "from",
    "to",
    "on",
    "in",
    "at",
    "near",
    "via",
    "until",
    "departing",
    "returning",
    "leaving",
    "arriving",
];

/// The parts of a search term that go into labelled fields: each role word
/// that names a field on this page (its label is that word, or starts
/// with it: "From", "To city") starts a value running to the next such
/// word; a role word followed by a date or a time starts one too (into the
/// field of that shape). `None` unless some role word names a field, so a
/// plain search ("hotels in Paris" on a page with one search box) is typed
/// whole as before.
pub fn role_values(cx: &Cx<'_>, term: &str) -> Option<Vec<Value>> {
    use crate::planner::values::{shape, Shape};
    let words: Vec<&str> = term.split_whitespace().collect();
    let fields: Vec<&Observed> = cx
        .page
        .elements
        .iter()
        .filter(|e| e.is_field() && !e.is_disabled())
        .collect();
    let role = |w: &str| -> Option<String> {
        let w = w.trim_end_matches([':', ',']).to_lowercase();
        ROLE_WORDS.contains(&w.as_str()).then_some(w)
    };
    let names_field = |w: &str| {
        fields.iter().any(|e| {
            let l = crate::text::normalize(e.label());
            let mut ws = l.split(' ');
            ws.next() == Some(w) && ws.count() <= 1
        })
    };
    let mut marks: Vec<(usize, String)> = Vec::new();
    let mut named = false;
    for i in 0..words.len().saturating_sub(1) {
        let Some(w) = role(words[i]) else { continue };
        if names_field(&w) {
            named = true;
            marks.push((i, w));
        } else if matches!(shape(words[i + 1]), Shape::Date | Shape::Time) {
            marks.push((i, String::new()));
        }
    }
    if !named {
        return mentioned_values(&fields, &words);
    }
    let values: Vec<Value> = marks
        .iter()
        .enumerate()
        .filter_map(|(k, (i, label))| {
            let end = marks.get(k + 1).map(|m| m.0).unwrap_or(words.len());
            let v = words[i + 1..end]
                .join(" ")
                .trim_matches([',', '.', ';'])
                .to_string();
            (!v.is_empty()).then(|| Value::literal(v, FieldKind::Other, label.clone()))
        })
        .collect();
    (!values.is_empty()).then_some(values)
}

/// "drama movies directed by Holloway from year 2011" on a form with
/// boxes Genre, Director and Year: each word of the term that names a box
/// (the same word, or the same stem: "directed" / "Director") starts the
/// value for that box, running to the next such word; the words before
/// the first one, less the plural noun that says what is searched
/// ("movies"), go to the one box left. Only when the term names two boxes
/// or more — a term that names none, or one, is a plain search.
fn mentioned_values(fields: &[&Observed], words: &[&str]) -> Option<Vec<Value>> {
    let boxes: Vec<&Observed> = fields
        .iter()
        .copied()
        .filter(|e| e.is_text_entry())
        .collect();
    if boxes.len() < 2 {
        return None;
    }
    let labels: Vec<Vec<String>> = boxes
        .iter()
        .map(|e| {
            crate::text::normalize(e.label())
                .split(' ')
                .filter(|w| w.len() >= 4)
                .map(str::to_string)
                .collect()
        })
        .collect();
    // (word index, box index) of each mention, the first mention of a box.
    let mut marks: Vec<(usize, usize)> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let w = crate::text::normalize(w);
        if w.len() < 4 {
            continue;
        }
        let hit = labels
            .iter()
            .position(|ls| ls.iter().any(|l| names_box(l, &w)));
        if let Some(b) = hit.filter(|b| !marks.iter().any(|m| m.1 == *b)) {
            marks.push((i, b));
        }
    }
    const GLUE: &[&str] = &["by", "of", "is", "as", "the", "a", "an", "for", "with"];
    let clean = |ws: &[&str]| -> String {
        let mut ws: Vec<&str> = ws.to_vec();
        while ws
            .first()
            .is_some_and(|w| GLUE.contains(&w.to_lowercase().as_str()))
        {
            ws.remove(0);
        }
        // "… Holloway from": a role word left before the next mention.
        while ws.last().is_some_and(|w| {
            let l = w.trim_end_matches([',', '.', ';']).to_lowercase();
            GLUE.contains(&l.as_str()) || ROLE_WORDS.contains(&l.as_str()) || l == "and"
        }) {
            ws.pop();
        }
        ws.join(" ").trim_matches([',', '.', ';']).to_string()
    };
    // A mention with no words after it before the next one ("action
    // movies directed by …" on a form with a "Movie Genre" box: "movies"
    // is what is searched, the next word names the Director box) names
    // nothing: it is left out, and its box may take the words before the
    // first mention.
    while let Some(k) = (0..marks.len()).find(|&k| {
        let end = marks.get(k + 1).map_or(words.len(), |m| m.0);
        clean(&words[marks[k].0 + 1..end]).is_empty()
    }) {
        marks.remove(k);
    }
    if marks.len() < 2 {
        return None;
    }
    let mut values = Vec::new();
    for (k, &(i, b)) in marks.iter().enumerate() {
        let end = marks.get(k + 1).map_or(words.len(), |m| m.0);
        let v = clean(&words[i + 1..end]);
        if v.is_empty() {
            return None;
        }
        values.push(Value::literal(v, FieldKind::Other, boxes[b].label()));
    }
    // The words before the first mention: the box no mention took.
    let lead: Vec<&str> = words[..marks[0].0].to_vec();
    let left: Vec<usize> = (0..boxes.len())
        .filter(|b| !marks.iter().any(|m| m.1 == *b))
        .collect();
    if let ([b], false) = (left.as_slice(), lead.is_empty()) {
        let mut lead = lead;
        // "drama movies": the plural noun is what is searched, not the value.
        if lead.len() >= 2 && lead.last().is_some_and(|w| w.len() > 3 && w.ends_with('s')) {
            lead.pop();
        }
        let v = clean(&lead);
        if !v.is_empty() {
            values.push(Value::literal(v, FieldKind::Other, boxes[*b].label()));
        }
    }
    Some(values)
}

/// A word of the task that names a box whose label has the word
/// `label`: the same word or stem, or a part of what the box holds — a
/// year, a month or a day is said of a date box ("from year 2011" into
/// "Released Date").
fn names_box(label: &str, word: &str) -> bool {
    same_stem(label, word) || label == "date" && matches!(word, "year" | "month" | "day")
}

/// The same word or the same stem: a shared beginning of at least five
/// letters that covers most of the shorter word ("directed" / "director",
/// "released" / "release"), or the whole of a short one ("year").
fn same_stem(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let common = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    let short = a.len().min(b.len());
    common >= 5 && common * 4 >= short * 3
}
