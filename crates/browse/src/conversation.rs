//! One conversation (a `task` and the `state`s after it) and the two rules
//! of docs/contracts/browse.md that hold by construction here, whatever the policy chose
//! (docs/contracts/browse.md §5 "Rules"):
//! - "You need to click a selector before typing into it": a `type` whose
//!   selector was not the previous answer's `click` is preceded by that click.
//! - "You need to go to a page before clicking on a selector on that page":
//!   every selector is written from the HTML of the page the client just
//!   sent, so it names an element of the page the client is on; a page the
//!   task names is reached with `goto` first (the policies navigate before
//!   acting).

use crate::page::BrowsePage;
use crate::protocol::{Answer, Endpoint};
use crate::reason::{element_phrase, Reason};
use sentience_agent::policy::Baseline;
use sentience_agent::reflect;
use sentience_agent::types::{HistoryEntry, Reflection};
use sentience_snapshot_core::Observed;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// Answers after which a conversation ends with `finish` (a loop guard).
pub const MAX_STEPS: u32 = 100;

/// What a policy wants done next, in element ids of the current page.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Goto(String),
    Click(u32),
    Type {
        id: u32,
        text: String,
    },
    /// Submit the field's form (Enter): its submit button, else `type` "\n".
    Enter(u32),
    /// A key in the element (else where the focus is): a `press` answer,
    /// for a client that accepts it (see [`Conversation::accepts`]).
    Press {
        id: Option<u32>,
        key: String,
        /// How many times (a slider's arrow key, once per step).
        repeat: u32,
    },
    /// Look again after this many milliseconds: a `wait` answer, for a
    /// client that accepts it.
    Wait(u64),
    /// Done; the text says what shows it.
    Finish(String),
    /// Cannot go on; the text says why.
    Fail(String),
}

/// The last answer, to apply click-before-type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LastAnswer {
    pub endpoint: String,
    pub selector: Option<String>,
}

/// Everything kept between two messages of a conversation (stored as JSON).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Conversation {
    pub task: String,
    /// Where we believe the client is: the `url` it sent, else the last
    /// `goto`, else empty (unknown).
    pub url: String,
    /// The planner's history (the run API's shape, so the same planner reads it).
    pub history: Vec<HistoryEntry>,
    #[serde(default)]
    pub reflections: Vec<Reflection>,
    pub baseline: Option<Baseline>,
    pub last: Option<LastAnswer>,
    /// Answers given so far.
    pub steps: u32,
    /// A `finish` was sent: later `state`s get 409.
    pub finished: bool,
    /// The answers beyond the contract's four the client said it carries
    /// out (`task`'s `accepts`: "press", "wait"; docs/contracts/browse.md §2).
    #[serde(default)]
    pub accepts: Vec<String>,
}

impl Conversation {
    pub fn new(task: &str, url: Option<&str>) -> Conversation {
        Conversation {
            task: task.to_string(),
            url: url.unwrap_or_default().to_string(),
            history: Vec::new(),
            reflections: Vec::new(),
            baseline: None,
            last: None,
            steps: 0,
            finished: false,
            accepts: Vec::new(),
        }
    }

    /// The client carries out `endpoint` answers (`press`, `wait`).
    pub fn accepts(&self, endpoint: &str) -> bool {
        self.accepts.iter().any(|a| a == endpoint)
    }

    /// Takes in a new page: the client's URL if it sent one, and the
    /// outcome of the previous action (the page after it).
    pub fn observe(&mut self, url: Option<&str>, signature: &str, all_text: &str) {
        if let Some(u) = url.filter(|u| !u.is_empty()) {
            self.url = u.to_string();
        }
        if let Some(h) = self.history.last_mut() {
            if h.page_after.is_none() {
                h.page_after = Some(signature.to_string());
                h.success = Some(true);
                h.observation = "Success".into();
            }
        }
        // As a run does (docs/contracts/run-api.md §13): a reflection when
        // one is due, so an action repeated on an unchanged page (a click
        // that did nothing, three times) is avoided from then on instead of
        // being answered again until the step limit.
        if reflect::due(&self.history, self.steps)
            && self
                .reflections
                .last()
                .is_none_or(|r| r.step_number != self.steps)
        {
            let r = reflect::reflect(&self.history, self.steps, sentience_agent::time::now_ms());
            if self.steps % reflect::EVERY == 0 || r.should_adjust {
                self.reflections.push(r);
            }
        }
        if self.baseline.is_none() {
            self.baseline = Some(Baseline {
                url: self.url.clone(),
                markers: sentience_agent::text::success_markers(all_text),
            });
        }
    }

    /// The history with each element named by the id this page gives it:
    /// ids are positions in one HTML, and a section that was hidden or
    /// shown since would make an old action's id name another element
    /// here (the password box taken for the e-mail box typed into before).
    /// An element no longer here gets id 0, which names none.
    pub fn history_on(&self, page: &BrowsePage) -> Vec<HistoryEntry> {
        let mut out = self.history.clone();
        for h in &mut out {
            let Some(p) = h.parameters.as_mut() else {
                continue;
            };
            let Some(sel) = p.get("selector").and_then(Value::as_str) else {
                continue;
            };
            let id = page.id_of_selector(sel).unwrap_or(0);
            p.insert("id".into(), json!(id));
        }
        out
    }

    fn push(&mut self, action: &str, params: Value, e: Option<&Observed>, sig: &str) {
        let parameters = match params {
            Value::Object(m) => Some(m),
            _ => Some(Map::new()),
        };
        self.history.push(HistoryEntry {
            step_number: self.steps,
            action: action.into(),
            observation: "Pending".into(),
            timestamp: sentience_agent::time::now_ms(),
            parameters,
            success: None,
            element_text: e
                .map(|e| sentience_agent::text::truncate(e.label(), 80))
                .filter(|t| !t.is_empty()),
            bbox: None,
            url: Some(self.url.clone()),
            page_before: Some(sig.to_string()),
            page_after: None,
        });
    }

    fn answered(&mut self, a: Answer) -> Answer {
        self.steps += 1;
        self.last = Some(LastAnswer {
            endpoint: a.endpoint.as_str().into(),
            selector: a.selector.clone(),
        });
        if a.endpoint == Endpoint::Finish {
            self.finished = true;
        }
        a
    }

    /// Turns the policy's action into the answer, applying the rules above.
    /// `sig` is the current page's signature (for the planner's history).
    pub fn answer(&mut self, page: &BrowsePage, action: Action, sig: &str) -> Answer {
        self.answer_with(page, action, sig, None)
    }

    /// [`Conversation::answer`] with the model's own reason for the action,
    /// used when it has the spec's form ("The user wants to …") and the
    /// action is sent as chosen (a click inserted before typing gets ours).
    pub fn answer_with(
        &mut self,
        page: &BrowsePage,
        action: Action,
        sig: &str,
        model_reason: Option<String>,
    ) -> Answer {
        let reason = Reason::new(&self.task, page, &self.url, self.history.last());
        let theirs = model_reason.filter(|r| {
            r.get(..17)
                .is_some_and(|p| p.eq_ignore_ascii_case("the user wants to"))
        });
        let or = |ours: String| theirs.clone().unwrap_or(ours);
        if self.steps >= MAX_STEPS {
            let why = format!("we have already given {MAX_STEPS} answers without finishing");
            return self.answered(Answer::finish(reason.stop(&why)));
        }
        match action {
            Action::Goto(url) => {
                self.push("navigate", json!({ "url": url }), None, sig);
                let a = Answer::goto(or(reason.goto(&url)), url.clone());
                self.url = url;
                self.answered(a)
            }
            Action::Click(id) => {
                let Some((e, selector)) = self.target(page, id) else {
                    return self.no_selector(page, id, &reason);
                };
                self.push(
                    "click",
                    json!({ "id": id, "selector": selector }),
                    Some(e),
                    sig,
                );
                let a = Answer::click(or(reason.click(e, &selector)), selector);
                self.answered(a)
            }
            Action::Type { id, text } => {
                let Some((e, selector)) = self.target(page, id) else {
                    return self.no_selector(page, id, &reason);
                };
                // docs/contracts/browse.md: click a selector before typing into it.
                if !self.just_clicked(&selector) {
                    let a = Answer::click(reason.focus(e, &selector, &text), selector);
                    return self.answered(a);
                }
                // A password is never repeated in a later reason (see reason.rs).
                let params = if e.facts.input_type == "password" {
                    json!({ "id": id, "text": text, "secret": true, "selector": selector })
                } else {
                    json!({ "id": id, "text": text, "selector": selector })
                };
                self.push("type", params, Some(e), sig);
                let a = Answer::typing(or(reason.typing(e, &selector, &text)), selector, text);
                self.answered(a)
            }
            Action::Enter(id) => {
                if let Some(submit) = submit_button(page, id) {
                    if let Some((e, selector)) = self.target(page, submit) {
                        let field = page.find(id).and_then(|f| page.selector(f));
                        let params = json!({ "key": "Enter", "id": id, "selector": field });
                        self.push("press", params, Some(e), sig);
                        let a = Answer::click(reason.submit(e, &selector), selector);
                        return self.answered(a);
                    }
                }
                let Some((e, selector)) = self.target(page, id) else {
                    return self.no_selector(page, id, &reason);
                };
                if !self.just_clicked(&selector) {
                    let a = Answer::click(reason.focus(e, &selector, "Enter"), selector);
                    return self.answered(a);
                }
                let params = json!({ "key": "Enter", "id": id, "selector": selector });
                self.push("press", params, Some(e), sig);
                let a = Answer::typing(reason.enter(e, &selector), selector, "\n".into());
                self.answered(a)
            }
            Action::Press { id, key, repeat } => {
                let target = match id {
                    Some(id) => match self.target(page, id) {
                        Some((e, selector)) => Some((id, e, selector)),
                        None => return self.no_selector(page, id, &reason),
                    },
                    None => None,
                };
                let mut params = match &target {
                    Some((id, _, selector)) => {
                        json!({ "key": key, "id": id, "selector": selector })
                    }
                    None => json!({ "key": key }),
                };
                if repeat > 1 {
                    params["repeat"] = json!(repeat);
                }
                self.push("press", params, target.as_ref().map(|t| t.1), sig);
                let why = reason.press(target.as_ref().map(|t| (t.1, t.2.as_str())), &key);
                let a = Answer::press(or(why), target.map(|t| t.2), key, repeat);
                self.answered(a)
            }
            Action::Wait(ms) => {
                let ms = ms.min(crate::protocol::MAX_WAIT_MS);
                self.push("observe", json!({ "waitMs": ms }), None, sig);
                self.answered(Answer::wait(or(reason.wait(ms)), ms))
            }
            Action::Finish(result) => self.answered(Answer::finish(or(reason.finish(&result)))),
            Action::Fail(why) => self.answered(Answer::finish(reason.stop(&why))),
        }
    }

    fn target<'p>(&self, page: &'p BrowsePage, id: u32) -> Option<(&'p Observed, String)> {
        let e = page.find(id)?;
        Some((e, page.selector(e)?))
    }

    fn just_clicked(&self, selector: &str) -> bool {
        self.last
            .as_ref()
            .is_some_and(|l| l.endpoint == "click" && l.selector.as_deref() == Some(selector))
    }

    fn no_selector(&mut self, page: &BrowsePage, id: u32, reason: &Reason) -> Answer {
        let what = page
            .find(id)
            .map(element_phrase)
            .unwrap_or_else(|| format!("element {id}"));
        let why = format!("no CSS selector matches only {what} in this HTML");
        self.answered(Answer::finish(reason.stop(&why)))
    }
}

/// The submit button of the form that owns field `id` (HTML §4.10.21.2
/// implicit submission: Enter in a field clicks its form's default button).
fn submit_button(page: &BrowsePage, id: u32) -> Option<u32> {
    let field = page.find(id)?;
    let form = field.facts.form;
    if form == 0 {
        return None;
    }
    page.elements
        .iter()
        .filter(|e| {
            let is_submit = match e.facts.tag.as_str() {
                "button" => matches!(e.facts.input_type.as_str(), "" | "submit"),
                "input" => matches!(e.facts.input_type.as_str(), "submit" | "image"),
                _ => false,
            };
            is_submit && e.facts.form == form
        })
        .min_by_key(|e| e.element.id)
        .map(|e| e.element.id)
}
