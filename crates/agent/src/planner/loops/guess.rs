//! A guess narrowed by the page's answers (issue 23 "Recovery": a search
//! over attempts, not one action repeated). The task asks to guess; the
//! page has one box to type a number in and answers each attempt with
//! "too high" / "too low" (or "go lower" / "try higher"), and says when it
//! is right. Each guess halves the range left: the range starts as the
//! one the task or the page states ("between 1 and 1000"), and the
//! guesses already made say how it narrowed (a guess below the one before
//! means the one before was too high), so the history is the only memory
//! and a restarted server carries on.

use super::{task_words, text_box};
use crate::planner::context::Cx;
use crate::planner::layout::normalize;
use crate::policy::Decision;
use crate::types::Tool;
use sentience_snapshot_core::Observed;

/// Words that ask for a search over attempts.
const GUESS: &[&str] = &["guess", "guessing", "guesses"];
/// The page's answers, by what they ask of the next attempt.
const LOWER: &[&str] = &[
    "too high",
    "too big",
    "too large",
    "too much",
    "lower",
    "smaller",
    "go down",
];
const HIGHER: &[&str] = &[
    "too low",
    "too small",
    "too little",
    "higher",
    "bigger",
    "larger",
    "go up",
];
const RIGHT: &[&str] = &[
    "correct",
    "you got it",
    "got it",
    "you win",
    "you won",
    "well done",
    "that s right",
];
/// The range assumed when neither the task nor the page states one.
const DEFAULT_RANGE: (i64, i64) = (1, 100);
/// Attempts before giving up (a halving search of any sane range ends sooner).
const MAX_ATTEMPTS: usize = 40;

/// What the page said of the last attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    Lower,
    Higher,
    Right,
}

pub fn decide(cx: &Cx<'_>) -> Option<Decision> {
    let words = task_words(cx.task);
    if !words.iter().any(|w| GUESS.contains(&w.as_str())) {
        return None;
    }
    let field = the_box(cx)?;
    let id = cx.id(field);
    // The attempts made: each a number typed into the box.
    let typed: Vec<(usize, i64)> = cx
        .history
        .iter()
        .enumerate()
        .filter(|(_, h)| h.action == "type" && cx.on(h, field))
        .filter_map(|(i, h)| Some((i, h.param_str("text")?.trim().parse::<i64>().ok()?)))
        .collect();
    let Some(&(at, last)) = typed.last() else {
        let (lo, hi) = range(cx);
        return Some(Decision::Tool(Tool::Type {
            id,
            text: ((lo + hi) / 2).to_string(),
        }));
    };
    // Typed but not yet sent: the button after the box sends it, else Enter.
    let sent = cx.history[at + 1..]
        .iter()
        .any(|h| matches!(h.action.as_str(), "press" | "click"));
    if !sent {
        return Some(Decision::Tool(match submit_button(cx, field) {
            Some(b) => Tool::Click { id: cx.id(b) },
            None => Tool::Press {
                key: "Enter".into(),
                id: Some(id),
                repeat: None,
            },
        }));
    }
    let Some((answer, line)) = answer(cx, field) else {
        return Some(Decision::Ask(format!(
            "I guessed {last}, but the page said nothing about it. What should I try next?"
        )));
    };
    if answer == Answer::Right {
        return Some(Decision::Finish(format!(
            "Done: {last} (the page says \"{line}\")"
        )));
    }
    let (mut lo, mut hi) = range(cx);
    for w in typed.windows(2) {
        let (a, b) = (w[0].1, w[1].1);
        if b < a {
            hi = hi.min(a - 1);
        } else {
            lo = lo.max(a + 1);
        }
    }
    match answer {
        Answer::Lower => hi = hi.min(last - 1),
        _ => lo = lo.max(last + 1),
    }
    if lo > hi || typed.len() >= MAX_ATTEMPTS {
        return Some(Decision::Ask(format!(
            "I made {} guesses and the page's answers leave no number (last: {last}, \"{line}\"). What should I try?",
            typed.len()
        )));
    }
    Some(Decision::Tool(Tool::Type {
        id,
        text: ((lo + hi) / 2).to_string(),
    }))
}

/// The box the guesses go in: the page's one number box, else its one
/// text box.
fn the_box<'a>(cx: &Cx<'a>) -> Option<&'a Observed> {
    let boxes: Vec<&Observed> = cx.page.elements.iter().filter(|e| text_box(e)).collect();
    let numbers: Vec<&Observed> = boxes
        .iter()
        .copied()
        .filter(|e| e.facts.input_type == "number")
        .collect();
    match (numbers.as_slice(), boxes.as_slice()) {
        ([one], _) | ([], [one]) => Some(one),
        _ => None,
    }
}

/// The button just after the box (beside it or below it), in reading
/// order: it sends the attempt whether or not the box is in a form (Enter
/// does nothing in a box outside one).
fn submit_button<'a>(cx: &Cx<'a>, field: &Observed) -> Option<&'a Observed> {
    let after = |e: &&Observed| {
        let (b, f) = (e.element.bbox, field.element.bbox);
        b.y >= f.y - 2.0 && (b.y > f.y + 2.0 || b.x > f.x)
    };
    cx.page
        .elements
        .iter()
        .filter(|e| e.facts.tag == "button" && !e.is_disabled())
        .filter(after)
        .min_by(|a, b| crate::planner::layout::reading_order(a, b))
}

/// The range stated in the task, else on the page, else `DEFAULT_RANGE`:
/// "between A and B", "from A to B".
fn range(cx: &Cx<'_>) -> (i64, i64) {
    stated(&normalize(cx.task))
        .or_else(|| stated(&normalize(&cx.page.visible_text)))
        .unwrap_or(DEFAULT_RANGE)
}

fn stated(text: &str) -> Option<(i64, i64)> {
    let ws: Vec<&str> = text.split(' ').collect();
    let num = |w: &str| w.parse::<i64>().ok();
    ws.windows(4).find_map(|w| match w {
        ["between", a, "and", b] | ["from", a, "to", b] => {
            let (a, b) = (num(a)?, num(b)?);
            (a < b).then_some((a, b))
        }
        _ => None,
    })
}

/// The page's answer to the last attempt: the first line after the box,
/// in reading order, that says one thing (a line saying both "higher" and
/// "lower" explains the game, it answers nothing).
fn answer(cx: &Cx<'_>, field: &Observed) -> Option<(Answer, String)> {
    let all = cx.page.lines();
    let label = normalize(field.text());
    // The lines after the box's own (its label), else all of them.
    let from = all
        .iter()
        .position(|l| !label.is_empty() && normalize(l).contains(&label))
        .map_or(0, |p| p + 1);
    all[from..]
        .iter()
        .chain(all[..from].iter())
        .find_map(|l| said(l).map(|a| (a, l.to_string())))
}

fn said(line: &str) -> Option<Answer> {
    let t = format!(" {} ", normalize(line));
    let has = |ws: &[&str]| ws.iter().any(|w| t.contains(&format!(" {w} ")));
    match (has(LOWER), has(HIGHER), has(RIGHT)) {
        (true, false, _) => Some(Answer::Lower),
        (false, true, _) => Some(Answer::Higher),
        (false, false, true) => Some(Answer::Right),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn a_line_that_names_both_ways_answers_nothing() {
        assert_eq!(said("Too high, try a lower number."), Some(Answer::Lower));
        assert_eq!(said("Too low — try a higher number"), Some(Answer::Higher));
        assert_eq!(said("Correct! It's yours."), Some(Answer::Right));
        assert_eq!(said("we tell you whether to go higher or lower"), None);
        assert_eq!(stated("worth between 1 and 1000 dollars"), Some((1, 1000)));
    }
}
