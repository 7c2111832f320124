//! A time of day asked as several controls (a meeting's Hour / Minute /
//! AM-PM selects, an alarm's HH and MM boxes): the time the task gives,
//! split into the part each control names — never "2:30 PM" matched to
//! the Minute select's "30" alone, nor the hour of a date. The time's
//! counterpart of `date_parts.rs`.

use super::Place;
use crate::planner::context::Cx;
use crate::planner::steps::Outcome;
use crate::planner::values::option_for;
use crate::text::normalize;
use crate::types::Tool;
use sentience_snapshot_core::Observed;

#[derive(Clone, Copy, PartialEq, Debug)]
enum Part {
    Hour,
    Minute,
    Meridiem,
}

/// The part a control names by its own words ("Hour", "Minutes", "AM or
/// PM"), or, for a select with no such words, by its options: exactly AM
/// and PM is the half of the day. "MM" is left to a date's month.
fn part_of(e: &Observed) -> Option<Part> {
    if !(e.is_select() || e.is_text_entry())
        || matches!(e.facts.input_type.as_str(), "time" | "date")
    {
        return None;
    }
    let words = normalize(&format!("{} {}", e.label(), e.facts.name));
    let has = |w: &[&str]| words.split(' ').any(|x| w.contains(&x));
    let opts: Vec<String> = e
        .element
        .state
        .options()
        .iter()
        .map(|o| normalize(&o.text))
        .filter(|o| !o.is_empty())
        .collect();
    let meridiem_options =
        opts.len() == 2 && opts.iter().any(|o| o == "am") && opts.iter().any(|o| o == "pm");
    if meridiem_options || (has(&["am"]) && has(&["pm"])) {
        return Some(Part::Meridiem);
    }
    match (
        has(&["hour", "hours", "hh"]),
        has(&["minute", "minutes", "min", "mins"]),
    ) {
        (true, false) => Some(Part::Hour),
        (false, true) => Some(Part::Minute),
        _ => None,
    }
}

/// The text for one part in control `e`; `twelve` when the page splits
/// the day in halves (an AM / PM control beside the hour).
fn text_for(e: &Observed, part: Part, (h, m): (u32, u32), twelve: bool) -> Option<String> {
    let tries: Vec<String> = match part {
        Part::Hour if twelve => {
            let h12 = if h % 12 == 0 { 12 } else { h % 12 };
            vec![h12.to_string(), format!("{h12:02}")]
        }
        Part::Hour => vec![h.to_string(), format!("{h:02}")],
        Part::Minute => vec![format!("{m:02}"), m.to_string()],
        Part::Meridiem => {
            let half = if h >= 12 { "PM" } else { "AM" };
            vec![half.to_string(), half.to_lowercase()]
        }
    };
    if e.is_select() && !e.element.state.options().is_empty() {
        // Exactly an option's own text or value: "3" must not find "30".
        return tries.iter().find_map(|t| {
            e.element
                .state
                .options()
                .iter()
                .find(|o| normalize(&o.text) == normalize(t) || normalize(&o.value) == normalize(t))
                .map(|o| o.text.clone())
                .or_else(|| option_for(e, t).filter(|o| normalize(o) == normalize(t)))
        });
    }
    tries.into_iter().next()
}

/// The next part to set, or done once every part holds its value; `None`
/// when the page has no such controls (an hour and a minute at least, and
/// no time field of its own).
pub(super) fn place<'p>(cx: &Cx<'p>, hm: (u32, u32), taken: &[&'p Observed]) -> Option<Place<'p>> {
    // A time field of its own takes the time whole.
    if cx
        .page
        .elements
        .iter()
        .any(|e| e.facts.input_type == "time")
    {
        return None;
    }
    let mut parts: Vec<(Part, &'p Observed)> = Vec::new();
    for e in &cx.page.elements {
        if e.is_disabled() || taken.iter().any(|t| std::ptr::eq(*t, e)) {
            continue;
        }
        if let Some(p) = part_of(e) {
            if !parts.iter().any(|(q, _)| *q == p) {
                parts.push((p, e));
            }
        }
    }
    let has = |p: Part| parts.iter().any(|(q, _)| *q == p);
    if !(has(Part::Hour) && has(Part::Minute)) {
        return None;
    }
    let twelve = has(Part::Meridiem)
        || parts.iter().any(|(p, e)| {
            *p == Part::Hour && e.is_select() && {
                let hours: Vec<u32> = e
                    .element
                    .state
                    .options()
                    .iter()
                    .filter_map(|o| o.text.trim().parse().ok())
                    .collect();
                !hours.is_empty() && hours.iter().all(|&n| (1..=12).contains(&n))
            }
        });
    for (part, e) in &parts {
        let want = text_for(e, *part, hm, twelve)?;
        if !cx.holds(e, &want) && normalize(e.value()) != normalize(&want) {
            return Some(Place::Act(Outcome::Act(Tool::Type {
                id: cx.id(e),
                text: want,
            })));
        }
    }
    Some(Place::Parts(parts.into_iter().map(|(_, e)| e).collect()))
}
