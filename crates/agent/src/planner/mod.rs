//! The built-in planner (docs/agent.md): one for every surface — the run
//! API and the extension's run loop (`ScorerPolicy`), `sentience act`'s
//! dom provider, the browse protocol's built-in policy, and whatever else
//! drives a page without a model ([`Session`]).
//!
//! ```text
//! let planner = Planner::new("Sign in as grace@example.com, password \"x\"");
//! match planner.next(&Situation { page: &page, history: &history, ..}) { … }
//! ```
//!
//! Each decision parses nothing again (the task's steps are read once,
//! `intent`), walks the steps against the page and the history (`steps`),
//! and answers one `Decision`: a tool, the task's result, or a question
//! that says what was tried when it has really run out of options.

mod complete;
mod context;
mod fields;
pub mod find;
mod form;
mod goal;
pub(crate) mod layout;
mod leftover;
mod lookup;
mod loops;
mod recover;
mod refused;
mod repeated;
mod session;
pub(crate) mod slider;
pub mod steps;
mod uncover;
mod unveil;
mod values;
mod words;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_app_structure;
#[cfg(test)]
mod tests_apply;
#[cfg(test)]
mod tests_cards;
#[cfg(test)]
mod tests_complete;
#[cfg(test)]
mod tests_consent;
#[cfg(test)]
mod tests_design_systems;
#[cfg(test)]
mod tests_distance;
#[cfg(test)]
mod tests_field_words;
#[cfg(test)]
mod tests_hidden_form;
#[cfg(test)]
mod tests_inbox;
#[cfg(test)]
mod tests_leftover;
#[cfg(test)]
mod tests_listbox;
#[cfg(test)]
mod tests_loops;
#[cfg(test)]
mod tests_markup;
#[cfg(test)]
mod tests_moments;
#[cfg(test)]
mod tests_option_nouns;
#[cfg(test)]
mod tests_per_label;
#[cfg(test)]
mod tests_results;
#[cfg(test)]
mod tests_row_actions;
#[cfg(test)]
mod tests_row_settings;
#[cfg(test)]
mod tests_rows;
#[cfg(test)]
mod tests_said;
#[cfg(test)]
mod tests_short_labels;
#[cfg(test)]
mod tests_slider;
#[cfg(test)]
mod tests_suggest;
#[cfg(test)]
mod tests_superlative;
#[cfg(test)]
mod tests_time_parts;
#[cfg(test)]
mod tests_toggles;
#[cfg(test)]
mod tests_walked;
#[cfg(test)]
mod tests_wizard;

use crate::intent::{Done, Intent, Step};
use crate::page::Page;
use crate::policy::{
    Baseline, BoxFuture, Decision, Policy, PolicyContext, PolicyError, PolicyInfo,
};
use crate::task::TaskPlan;
use crate::types::{HistoryEntry, Tool};
use context::Cx;
use sentience_snapshot_core::Observed;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use steps::Outcome;

pub use goal::same_url;
pub use session::{entry, entry_signed, Session};

/// What a decision looks at besides the task.
pub struct Situation<'a> {
    pub page: &'a Page,
    /// Everything done so far in this task (the planner's only memory).
    pub history: &'a [HistoryEntry],
    /// Element ids reflections flagged as loop targets.
    pub avoid: &'a [String],
    /// The first page of the task (success text already there is no evidence).
    pub baseline: &'a Baseline,
}

/// A task, understood once, and how to carry it out on any page.
#[derive(Debug, Clone)]
pub struct Planner {
    task: String,
    intent: Intent,
    /// The parts of the task's clauses that no step carries
    /// (`leftover.rs`), found once with the intent.
    said: Vec<leftover::Part>,
}

impl Planner {
    pub fn new(task: &str) -> Planner {
        let intent = Intent::parse(task);
        Planner {
            said: leftover::said(task, &intent),
            task: task.to_string(),
            intent,
        }
    }

    pub fn task(&self) -> &str {
        &self.task
    }

    /// The task's steps (`Intent::describe` prints them).
    pub fn intent(&self) -> &Intent {
        &self.intent
    }

    /// The next decision on this page.
    pub fn next(&self, s: &Situation<'_>) -> Decision {
        let cx = Cx::new(&self.task, s.page, s.history, s.avoid, s.baseline);
        decide(&cx, &self.intent, &self.said)
    }
}

/// The embedded planner as the run API's policy (no LLM).
#[derive(Debug, Default, Clone)]
pub struct ScorerPolicy;

impl Policy for ScorerPolicy {
    fn info(&self) -> PolicyInfo {
        PolicyInfo {
            policy: "system2".into(),
            model: "embedded".into(),
            base_url: "embedded".into(),
        }
    }

    fn decide<'a>(
        &'a self,
        ctx: &'a PolicyContext<'a>,
    ) -> BoxFuture<'a, Result<Decision, PolicyError>> {
        Box::pin(std::future::ready(Ok(plan(ctx))))
    }
}

/// Tasks understood recently, by their text: a run asks for a decision on
/// the same task at every step, and parsing it is a measurable share of a
/// step's CPU (`cargo run --release -p sentience-agent --example
/// step_cost`). Bounded: past `PARSED_TASKS` different tasks it starts
/// over (each run then parses its task once more).
static PARSED: std::sync::LazyLock<Mutex<HashMap<String, Arc<Planner>>>> =
    std::sync::LazyLock::new(Mutex::default);
const PARSED_TASKS: usize = 1024;

/// The planner for a task, parsed once while it stays in `PARSED`.
fn planner_for(task: &str) -> Arc<Planner> {
    let lock = || PARSED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(p) = lock().get(task) {
        return p.clone();
    }
    // Parsed outside the lock: other runs' decisions do not wait for it.
    let p = Arc::new(Planner::new(task));
    let mut map = lock();
    if map.len() >= PARSED_TASKS {
        map.clear();
    }
    map.insert(task.to_string(), p.clone());
    p
}

/// One decision for a run's policy context.
pub fn plan(ctx: &PolicyContext<'_>) -> Decision {
    planner_for(ctx.task).next(&Situation {
        page: ctx.page,
        history: ctx.history,
        avoid: ctx.avoid,
        baseline: ctx.baseline,
    })
}

fn decide(cx: &Cx<'_>, intent: &Intent, said: &[leftover::Part]) -> Decision {
    let d = settle(cx, decide_steps(cx, intent, said));
    let Decision::Tool(t) = &d else {
        return d;
    };
    if !repeated::unchanged(cx, t) {
        return d;
    }
    // Done twice, nothing changed (`repeated.rs`): a click gives way to
    // the next best element; else ask, saying what was tried.
    if let (Tool::Click { id }, true) = (t, cx.avoid.len() < 64) {
        let mut avoid = cx.avoid.to_vec();
        avoid.push(id.key());
        let other = Cx::new(cx.task, cx.page, cx.history, &avoid, cx.baseline);
        match settle(&other, decide_steps(&other, intent, said)) {
            Decision::Tool(t2) if repeated::unchanged(cx, &t2) => {}
            d2 => return d2,
        }
    }
    let why = repeated::why(cx, t);
    if asked_here(cx) {
        return Decision::Fail(format!("Stuck on {}: {why}", cx.page.url));
    }
    Decision::Ask(recover::question(cx, &why))
}

/// The page's own answers to a decision of the steps: a form about to
/// be sent gets its consent box first, and a form whose submit is
/// disabled the box it waits for (`steps/consent.rs`).
fn settle(cx: &Cx<'_>, d: Decision) -> Decision {
    match d {
        Decision::Tool(t) => Decision::Tool(steps::consent::before_sending(cx, &t).unwrap_or(t)),
        Decision::Ask(q) => match steps::consent::unblock(cx) {
            Some(t) => Decision::Tool(t),
            None => Decision::Ask(q),
        },
        d => d,
    }
}

/// Asked the user already on this page.
fn asked_here(cx: &Cx<'_>) -> bool {
    cx.history
        .iter()
        .rev()
        .take_while(|h| h.url.as_deref().is_none_or(|u| same_url(u, &cx.page.url)))
        .any(|h| h.action == "ask_user")
}

fn decide_steps(cx: &Cx<'_>, intent: &Intent, said: &[leftover::Part]) -> Decision {
    if let Some(d) = loops::decide(cx) {
        return d;
    }
    if let Some(t) = uncover::leave_question(cx) {
        return Decision::Tool(t);
    }
    if intent.steps.is_empty() {
        return without_steps(cx);
    }
    let (walked, rest) = steps::walk(cx, &intent.steps);
    let stuck = match walked {
        Ok(_) => return finished(cx, intent, said),
        Err(Outcome::Act(t)) => match failed_before(cx, &t) {
            // The same action failed twice: a third try would not help.
            Some(why) => why,
            None => {
                // Sending the form: what its clauses said that no step
                // carries goes in first (`leftover.rs`).
                if let Some(first) = before_submit(cx, intent, said, &rest) {
                    return Decision::Tool(first);
                }
                // Going on to a form's next page ("Continue", "Next"):
                // what the task said that no step carries and this page
                // takes goes in first ("a table for 4" into the party
                // size of a booking's first page), since this page is
                // gone once the form moves on.
                if let Some(first) = before_forward(cx, intent, said, &t) {
                    return Decision::Tool(first);
                }
                return Decision::Tool(uncover::first(cx, t));
            }
        },
        Err(Outcome::Answer(a)) => return Decision::Finish(a),
        Err(Outcome::Done(_)) => return finished(cx, intent, said),
        Err(Outcome::Stuck(why)) => why,
    };
    // Out of options: ask, once per page; asked already and told nothing new, give up.
    if asked_here(cx) {
        return Decision::Fail(format!(
            "Stuck on {}: {stuck}; asking did not help",
            cx.page.url
        ));
    }
    Decision::Ask(recover::question(cx, &stuck))
}

/// The last step sends a form and every step before it is done: a part
/// of a clause no step carries that the form takes, done before sending.
/// `walked`: the decision's walk of the steps, which answers "done?"
/// without walking them again.
fn before_submit(
    cx: &Cx<'_>,
    intent: &Intent,
    said: &[leftover::Part],
    walked: &steps::Walked,
) -> Option<Tool> {
    let Some(Step::Submit { .. }) = intent.steps.last() else {
        return None;
    };
    let done = walked.all_but_last_done(cx, &intent.steps);
    // Every planner test that gets here checks the walk's answer against
    // the steps walked again without the submit (as this was done before).
    #[cfg(test)]
    assert_eq!(
        done,
        steps::run(cx, &intent.steps[..intent.steps.len() - 1], 0, false).is_ok(),
        "{}",
        cx.task
    );
    if !done {
        return None;
    }
    leftover::first_action(cx, intent, said)
}

/// `t` clicks a form's forward control ("Continue", "Next"): the first
/// leftover part this page can take (`leftover.rs`), done before it.
fn before_forward(cx: &Cx<'_>, intent: &Intent, said: &[leftover::Part], t: &Tool) -> Option<Tool> {
    let Tool::Click { id } = t else {
        return None;
    };
    let e = cx.page.find(&id.key())?;
    if !steps::wizard::is_forward(e.label()) {
        return None;
    }
    leftover::first_action(cx, intent, said)
}

/// The reason `t` failed, when the very same action failed twice already.
fn failed_before(cx: &Cx<'_>, t: &Tool) -> Option<String> {
    let params = t.parameters();
    let name = t.name().as_str();
    let failures: Vec<&HistoryEntry> = cx
        .history
        .iter()
        .filter(|h| {
            h.success == Some(false) && h.action == name && h.parameters.as_ref() == Some(&params)
        })
        .collect();
    (failures.len() >= 2).then(|| {
        let why = failures
            .last()
            .map(|h| h.observation.as_str())
            .unwrap_or("it failed");
        format!("{name} failed twice ({why})")
    })
}

/// Every step is done: the form a value was typed into is sent when it has
/// one submit button and nothing else was asked (a person would), else the
/// run finishes.
fn finished(cx: &Cx<'_>, intent: &Intent, said: &[leftover::Part]) -> Decision {
    if intent.done == Done::Answer {
        return Decision::Finish(format!("Done: {}", intent.describe()));
    }
    if let Some(d) = complete::pending(cx, intent, said) {
        return d;
    }
    // A form the page refused is not done (`refused.rs`).
    if let Some(d) = refused::answer(cx) {
        return d;
    }
    if let Some(line) = goal::fresh_success(cx).filter(|_| cx.acted()) {
        return Decision::Finish(format!("Done: the page shows \"{line}\""));
    }
    if cx.acted() || matches!(intent.done, Done::Url(_)) {
        Decision::Finish(format!("Done: {}", intent.describe()))
    } else {
        Decision::Finish(format!("Nothing to do: {}", intent.describe()))
    }
}

/// A task with no step the planner knows: finish when the goal shows,
/// else ask what to do.
fn without_steps(cx: &Cx<'_>) -> Decision {
    let plan = TaskPlan::parse(cx.task);
    if let Some(r) = goal::goal_met(cx, &plan) {
        return Decision::Finish(r);
    }
    if let Some(url) = &plan.url {
        let went = cx
            .history
            .iter()
            .any(|h| h.action == "navigate" && h.param_str("url") == Some(url.as_str()));
        if !same_url(&cx.page.url, url) && !went {
            return Decision::Tool(Tool::Navigate { url: url.clone() });
        }
    }
    Decision::Ask(recover::question(
        cx,
        "I do not know which part of the page this task is about",
    ))
}

/// Elements ranked by the task's steps, best first (targets, then the fields
/// for its values): for the LLM prompt.
pub fn ranked<'p>(page: &'p Page, intent: &Intent, task: &str, limit: usize) -> Vec<&'p Observed> {
    let baseline = Baseline::default();
    let cx = Cx::new(task, page, &[], &[], &baseline);
    let index = |e: &Observed| page.elements.iter().position(|x| std::ptr::eq(x, e));
    let mut out: Vec<usize> = Vec::new();
    let push = |i: Option<usize>, out: &mut Vec<usize>| {
        if let Some(i) = i {
            if out.len() < limit && !out.contains(&i) {
                out.push(i);
            }
        }
    };
    for step in &intent.steps {
        let fill = matches!(step, Step::Fill { .. });
        if let Some(t) = step.target().filter(|t| !t.is_empty() && !fill) {
            for h in find::resolve(&cx, t, &|_| true)
                .into_iter()
                .filter(|h| h.score >= find::FLOOR)
                .take(3)
            {
                push(Some(h.index), &mut out);
            }
        }
        let mut taken: Vec<&Observed> = Vec::new();
        for v in step.values() {
            let Some(text) = v.text() else {
                continue;
            };
            let placed = fields::Placed {
                text,
                kind: v.field,
                label: v.label.clone(),
            };
            if let Some(e) = fields::field_for(&cx, &placed, &taken) {
                taken.push(e);
                push(index(e), &mut out);
            }
        }
    }
    out.into_iter().map(|i| &page.elements[i]).collect()
}
