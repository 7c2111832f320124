//! A date asked as three boxes (a birthday's Month / Day / Year selects,
//! card-style DD MM YYYY inputs): the date the task gives, split into the
//! part each box names — never the whole "03/07/1990" into "Month".

use super::Place;
use crate::planner::context::Cx;
use crate::planner::steps::Outcome;
use crate::planner::values::{field_shape, option_for, Shape, MONTHS};
use crate::text::normalize;
use crate::types::Tool;
use sentience_snapshot_core::Observed;

#[derive(Clone, Copy, PartialEq)]
enum Part {
    Month,
    Day,
    Year,
}

/// The part a box names by its own words ("Month", "Birth year", "DD").
fn part_of(e: &Observed) -> Option<Part> {
    if !(e.is_select() || e.is_text_entry()) || e.facts.input_type == "date" {
        return None;
    }
    let words = normalize(&format!("{} {}", e.label(), e.facts.name));
    let has = |w: &str| words.split(' ').any(|x| x == w);
    match (
        has("month") || has("mm"),
        has("day") || has("dd"),
        has("year") || has("yyyy") || has("yy"),
    ) {
        (true, false, false) => Some(Part::Month),
        (false, true, false) => Some(Part::Day),
        (false, false, true) => Some(Part::Year),
        _ => None,
    }
}

/// The text for one part in box `e`: an option of a select (by value or
/// text: "3", "03", "March", "Mar"), else digits.
fn text_for(e: &Observed, part: Part, (y, m, d): (u32, u32, u32)) -> Option<String> {
    let month = MONTHS[(m as usize).saturating_sub(1).min(11)];
    let tries: Vec<String> = match part {
        Part::Month => vec![
            m.to_string(),
            format!("{m:02}"),
            month.to_string(),
            month[..3].to_string(),
        ],
        Part::Day => vec![d.to_string(), format!("{d:02}")],
        Part::Year => vec![y.to_string(), format!("{:02}", y % 100)],
    };
    if e.is_select() {
        if e.element.state.options().is_empty() {
            // Options not in the snapshot (the run API's shape): the
            // option text most selects show ("March", "7", "1990").
            let mut name = month.to_string();
            name[..1].make_ascii_uppercase();
            return Some(match part {
                Part::Month => name,
                _ => tries[0].clone(),
            });
        }
        return tries.iter().find_map(|t| option_for(e, t));
    }
    Some(match part {
        Part::Year if e.facts.placeholder.len() == 2 => format!("{:02}", y % 100),
        Part::Year => y.to_string(),
        _ => tries[1].clone(),
    })
}

/// The next part to set, or done once every part holds its value; `None`
/// when the page has no such boxes (at least two of the three parts, and
/// no date field of its own).
pub(super) fn place<'p>(
    cx: &Cx<'p>,
    ymd: (u32, u32, u32),
    taken: &[&'p Observed],
) -> Option<Place<'p>> {
    // A date field of its own (a text box that says "date", a native
    // one) takes the date whole; Month / Year boxes beside it are another
    // thing's (a card's expiry).
    let whole = |e: &Observed| {
        e.facts.input_type == "date"
            || (e.is_text_entry() && part_of(e).is_none() && field_shape(e) == Some(Shape::Date))
    };
    if cx.page.elements.iter().any(whole) {
        return None;
    }
    let mut parts: Vec<(Part, &'p Observed)> = Vec::new();
    for e in &cx.page.elements {
        if let Some(p) = part_of(e) {
            if !parts.iter().any(|(q, _)| *q == p) && !taken.iter().any(|t| std::ptr::eq(*t, e)) {
                parts.push((p, e));
            }
        }
    }
    if parts.len() < 2 {
        return None;
    }
    for (part, e) in &parts {
        let want = text_for(e, *part, ymd)?;
        if !cx.holds(e, &want) && normalize(e.value()) != normalize(&want) {
            return Some(Place::Act(Outcome::Act(Tool::Type {
                id: cx.id(e),
                text: want,
            })));
        }
    }
    Some(Place::Parts(parts.into_iter().map(|(_, e)| e).collect()))
}
