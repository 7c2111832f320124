//! The events of a run's live stream (docs/server.md "The live run stream";
//! the run API names the stream in docs/contracts/run-api.md §16). Each
//! turn that changes a run produces its events here; they are numbered and
//! committed with the change (`store`), then announced (`hub`), and the
//! stream sends them as stored.
//!
//! Every event is one JSON object: the envelope (`runId`, `seq`, `type`,
//! `at`, and the run's `step` and `status` after the change that produced
//! it), plus the fields of its type. The order of a turn's events is fixed:
//! `step_started`, `reflection`, then its outcome (`tool_proposed`,
//! `question_asked`, `finish` or `error`), then `status_changed`; a run's
//! last event is the `status_changed` into `completed`, `error` or
//! `cancelled`, after which the stream closes.

use crate::store::StoredEvent;
use sentience_agent::time::now_ms;
use sentience_agent::{Page, Run, RunStatus, StepResponse, ToolResult};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// One event before it is numbered: its type and its own fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub kind: &'static str,
    pub fields: Map<String, Value>,
}

impl Event {
    fn new(kind: &'static str, fields: Value) -> Event {
        let fields = match fields {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        Event { kind, fields }
    }
}

/// The run as it was before a turn: what its events are computed against.
#[derive(Debug, Clone, Copy)]
pub struct Before {
    status: RunStatus,
    reflections: usize,
}

impl Before {
    pub fn of(run: &Run) -> Before {
        Before {
            status: run.status,
            reflections: run.reflections.len(),
        }
    }
}

pub fn status_word(s: RunStatus) -> &'static str {
    match s {
        RunStatus::Created => "created",
        RunStatus::Running => "running",
        RunStatus::WaitingUser => "waiting_user",
        RunStatus::Completed => "completed",
        RunStatus::Error => "error",
        RunStatus::Cancelled => "cancelled",
    }
}

/// POST /agent/run/start: the run exists.
pub fn created(run: &Run) -> Vec<Event> {
    vec![Event::new(
        "run_created",
        json!({"task": run.task, "mode": run.mode}),
    )]
}

/// The first event of a step: the page it was given (if any: a summary,
/// not the snapshot) and the result of the previous action. Made before the
/// step consumes them.
pub fn step_started(page: Option<&Page>, last: Option<&ToolResult>) -> Event {
    let page = page.map(|p| json!({"url": p.url, "title": p.title, "elements": p.elements.len()}));
    Event::new(
        "step_started",
        json!({"page": page, "lastActionResult": last}),
    )
}

/// POST /step. A step on a run that has ended or waits for the user
/// changes nothing and produces nothing.
pub fn stepped(before: Before, run: &Run, resp: &StepResponse, started: Event) -> Vec<Event> {
    if before.status.is_terminal() || before.status == RunStatus::WaitingUser {
        return Vec::new();
    }
    let mut out = vec![started];
    out.extend(new_reflections(before, run));
    out.push(outcome(run, resp));
    out.extend(status_change(before, run));
    out
}

/// POST /answer.
pub fn answered(
    before: Before,
    run: &Run,
    approved: bool,
    answer: Option<&str>,
    resp: &StepResponse,
) -> Vec<Event> {
    let mut given = json!({"approved": approved});
    if let Some(a) = answer {
        given["answer"] = json!(a);
    }
    let mut out = vec![Event::new("answer_given", given)];
    // A refusal cancels the run: its end is the status change.
    if approved {
        out.push(outcome(run, resp));
    }
    out.extend(status_change(before, run));
    out
}

/// POST /cancel (nothing when the run had already ended).
pub fn cancelled(before: Before, run: &Run) -> Vec<Event> {
    status_change(before, run).into_iter().collect()
}

fn new_reflections(before: Before, run: &Run) -> Vec<Event> {
    run.reflections
        .iter()
        .skip(before.reflections)
        .map(|r| Event::new("reflection", json!({ "reflection": r })))
        .collect()
}

fn outcome(run: &Run, resp: &StepResponse) -> Event {
    match resp {
        StepResponse::ExecuteTool { tool, .. } => {
            let mut e = json!({ "tool": tool });
            // The element's label, as the history records it: what a person
            // reads ("click \"Sign in\""), where the tool has only an id.
            let acted_on = run
                .history
                .last()
                .filter(|h| h.action == tool.name().as_str())
                .and_then(|h| h.element_text.as_deref());
            if let Some(label) = acted_on {
                e["target"] = json!(label);
            }
            Event::new("tool_proposed", e)
        }
        StepResponse::AskUser { question, .. } => {
            let mut q = json!({ "question": question });
            if let Some(p) = &run.pending {
                if let Some(reason) = &p.reason {
                    q["reason"] = json!(reason);
                }
                if let Some(tool) = &p.tool {
                    q["tool"] = json!(tool);
                }
            }
            Event::new("question_asked", q)
        }
        StepResponse::Finish { result, .. } => Event::new("finish", json!({ "result": result })),
        StepResponse::Error { error, .. } => Event::new("error", json!({ "error": error })),
    }
}

fn status_change(before: Before, run: &Run) -> Option<Event> {
    (before.status != run.status).then(|| {
        Event::new(
            "status_changed",
            json!({"from": status_word(before.status), "to": status_word(run.status)}),
        )
    })
}

/// The wire form of an event (docs/server.md "Event format").
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Envelope<'a> {
    run_id: &'a str,
    seq: i64,
    #[serde(rename = "type")]
    kind: &'a str,
    at: u64,
    step: u32,
    status: &'static str,
    #[serde(flatten)]
    fields: &'a Map<String, Value>,
}

/// Numbers `events` after `last_seq` and renders each as stored and sent.
pub fn number(run: &Run, last_seq: i64, events: Vec<Event>) -> Vec<StoredEvent> {
    let at = now_ms();
    events
        .iter()
        .zip(last_seq + 1..)
        .map(|(e, seq)| {
            let json = serde_json::to_string(&Envelope {
                run_id: &run.run_id,
                seq,
                kind: e.kind,
                at,
                step: run.current_step,
                status: status_word(run.status),
                fields: &e.fields,
            })
            .unwrap_or_else(|_| {
                format!(
                    "{{\"runId\":{:?},\"seq\":{seq},\"type\":\"{}\"}}",
                    run.run_id, e.kind
                )
            });
            StoredEvent { seq, json }
        })
        .collect()
}

/// What the stream needs to know of an event it sends: whether it ends the run.
#[derive(Deserialize)]
struct Head {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    to: Option<String>,
}

/// The run's last event: a status change into a terminal status.
pub fn ends_run(json: &str) -> bool {
    serde_json::from_str::<Head>(json).is_ok_and(|h| {
        h.kind == "status_changed"
            && matches!(h.to.as_deref(), Some("completed" | "error" | "cancelled"))
    })
}
