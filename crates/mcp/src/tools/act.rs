//! Actions on elements by snapshot id (click, type, fill a form, choose an
//! option, hover, press a key, scroll): each checks the id against the page
//! it came from, passes careful mode's gate, runs the extension's action
//! (`{success, error?, outcome}`, docs/api.md) and answers with what
//! changed: a short diff, or the new page's listing after a navigation —
//! never the whole page again (docs/mcp.md "Actions").

use crate::backend::wait_ready;
use crate::careful;
use crate::error::{McpError, McpResult};
use crate::listing::{self, NO_CHANGE};
use crate::page::{self, Take, View};
use crate::server::{Reply, SentienceMcp};
use rmcp::service::{RequestContext, RoleServer};
use sentience_agent::{Tool, ToolName};
use sentience_snapshot_query::format::{clean, element_line};
use sentience_snapshot_query::Element;
use serde_json::{json, Value};
use std::time::Duration;

/// Token budget of the diff an action answers with.
pub const DIFF_BUDGET: usize = 500;
/// Token budget of the listing after a navigation.
pub const PAGE_BUDGET: usize = 1000;
/// Operations that set the value of their element (the text typed, the
/// option chosen): the element's new text is the agent's own doing.
const SETS_VALUE: [&str; 2] = ["type", "select"];
/// How long a navigation an action caused may take to load.
const LOAD_TIMEOUT: Duration = Duration::from_secs(20);

/// One operation of the extension's page API and how to speak of it.
pub struct Step {
    pub op: &'static str,
    pub args: Value,
    /// The element acted on (its id travels with its document's token).
    pub id: Option<u32>,
    /// "Clicked", "Typed into", …
    pub verb: String,
    /// What the security gate judges (None: nothing to judge).
    pub gate: Option<Tool>,
}

impl Step {
    pub fn on(op: &'static str, id: u32, args: Value, verb: &str, gate: Option<Tool>) -> Step {
        let mut args = args;
        args["id"] = id.into();
        Step {
            op,
            args,
            id: Some(id),
            verb: verb.to_string(),
            gate,
        }
    }
}

/// The agent's tool the security gate judges (careful mode); None when the
/// parameters do not make one, and then there is nothing to gate.
pub fn gate(name: ToolName, params: Value) -> Option<Tool> {
    Tool::from_parts(name, params.as_object()?).ok()
}

/// How an element is named in replies: `12 button "Sign in"`.
pub fn named(e: &Element) -> String {
    match e
        .text
        .as_deref()
        .map(|t| clean(t, 50))
        .filter(|t| !t.is_empty())
    {
        Some(t) => format!("{} {} \"{t}\"", e.id, e.role.as_str()),
        None => format!("{} {}", e.id, e.role.as_str()),
    }
}

/// The extension's refusal of an id, in words that say what to do.
fn action_error(id: Option<u32>, error: &str) -> McpError {
    let which = id
        .map(|i| format!("element {i}"))
        .unwrap_or_else(|| "the element".into());
    if error.contains("has navigated since the snapshot") {
        McpError::StaleId(format!(
            "The page changed since your last snapshot (it navigated or reloaded): {which} belongs to the old page. Take a new snapshot (browser_snapshot) and use its ids."
        ))
    } else if error.contains("no longer in the document") {
        McpError::StaleId(format!(
            "{which} is no longer on the page. Take a new snapshot (browser_snapshot) and use its ids."
        ))
    } else if error.contains("in the last snapshot") {
        McpError::StaleId(format!(
            "No {which} in the page's last snapshot. Take a new snapshot (browser_snapshot) and use its ids."
        ))
    } else {
        McpError::Browser(error.to_string())
    }
}

impl SentienceMcp {
    /// Element `id` as the agent saw it, or why the id cannot be used.
    pub(crate) async fn element(&self, tab: u64, id: u32) -> McpResult<Element> {
        let view = self.shared.views.get(tab).await;
        let Some(last) = view.last.as_ref() else {
            return Err(McpError::StaleId(format!(
                "No snapshot of this page yet, so element {id} is unknown: call browser_snapshot first and use an id from it."
            )));
        };
        if let Some(e) = last.element(id) {
            return Ok(e.clone());
        }
        Err(McpError::StaleId(match view.known.get(&id) {
            Some(e) => format!(
                "Element {} is no longer on the page (it went away after an earlier action). Take a new snapshot (browser_snapshot) and use its ids.",
                named(e)
            ),
            None if id <= last.base => format!(
                "Element {id} belongs to a page this tab has left (it is now on {}). Take a new snapshot (browser_snapshot) and use its ids.",
                last.snapshot.url
            ),
            None => format!(
                "No element {id} in your snapshot of this page. Take a new snapshot (browser_snapshot) and use its ids."
            ),
        }))
    }

    /// Careful mode: every gated step is put to the user before any runs.
    async fn gate(
        &self,
        tab: u64,
        steps: &[Step],
        ctx: &RequestContext<RoleServer>,
    ) -> McpResult<()> {
        if self.shared.config.mode == careful::Mode::Autonomous
            || steps.iter().all(|s| s.gate.is_none())
        {
            return Ok(());
        }
        let mut view = self.shared.views.get(tab).await;
        if view.last.is_none() {
            let (_, snap) = self.look(tab, &Take::default()).await?;
            self.remember(tab, snap.clone(), false).await;
            view.record(snap);
        }
        let Some(snap) = view.last.as_ref() else {
            return Ok(());
        };
        for step in steps {
            if let Some(tool) = &step.gate {
                let target = step.id.unwrap_or(u32::MAX);
                if let Some(hit) = careful::check(self.backend(), tab, snap, tool, target).await? {
                    careful::ask(self.shared.config.mode, &hit, ctx).await?;
                }
            }
        }
        Ok(())
    }

    /// Runs `steps` in order in the current tab, then answers with what changed.
    pub(crate) async fn act(
        &self,
        steps: Vec<Step>,
        ctx: &RequestContext<RoleServer>,
    ) -> McpResult<Reply> {
        let tab = self.tab().await?;
        for s in &steps {
            if let Some(id) = s.id {
                self.element(tab, id).await?;
            }
        }
        self.gate(tab, &steps, ctx).await?;
        let before = self.shared.views.get(tab).await;
        let doc = before.doc().map(str::to_string);
        let mut said = Vec::new();
        let mut navigated = false;
        // Whether the page did anything but take the values the agent set
        // (a type or choice that changed no DOM has nothing more to say).
        let mut only_values = true;
        let mut set_by_agent = Vec::new();
        let sets_values_only = steps.iter().all(|s| SETS_VALUE.contains(&s.op));
        let total = steps.len();
        for (i, step) in steps.into_iter().enumerate() {
            if ctx.ct.is_cancelled() {
                return Err(McpError::Cancelled);
            }
            let mut args = step.args;
            if let Some(id) = step.id {
                // The engine's own number, with its document's token: the
                // content script refuses it if the tab shows another page.
                args["id"] = id.saturating_sub(before.base()).into();
                if let Some(doc) = &doc {
                    args["doc"] = doc.clone().into();
                }
            }
            let what = match step.id.and_then(|id| before.last.as_ref()?.element(id)) {
                Some(e) => format!("{} {}", step.verb, named(e)),
                None => step.verb.clone(),
            };
            match self.backend().call(tab, step.op, args).await {
                Err(McpError::Browser(m)) if m.starts_with("navigated") => {
                    said.push(format!("{what}: the page navigated."));
                    navigated = true;
                    break;
                }
                Err(e) => return Err(e),
                Ok(v) if v.get("success").and_then(Value::as_bool) == Some(true) => {
                    let outcome = v.get("outcome").and_then(Value::as_str).unwrap_or("none");
                    match step.id {
                        Some(id) if SETS_VALUE.contains(&step.op) => set_by_agent.push(id),
                        _ => only_values = false,
                    }
                    if outcome != "none" {
                        only_values = false;
                    }
                    said.push(match outcome {
                        "navigated" => format!("{what}: the page navigated."),
                        _ => format!("{what}."),
                    });
                    if outcome == "navigated" {
                        navigated = true;
                        if i + 1 < total {
                            said.push(format!(
                                "Stopped there: {} more step(s) not done on the new page.",
                                total - i - 1
                            ));
                        }
                        break;
                    }
                }
                Ok(v) => {
                    let error = v
                        .get("error")
                        .and_then(Value::as_str)
                        .unwrap_or("the action failed");
                    let e = action_error(step.id, error);
                    if i == 0 {
                        return Err(e);
                    }
                    // Earlier steps happened: say so, and what they changed.
                    said.push(format!("{what} failed: {e}"));
                    let changes = self.after(tab, &before, navigated, &set_by_agent).await?;
                    return Err(McpError::Browser(format!("{}\n{changes}", said.join("\n"))));
                }
            }
        }
        if only_values {
            // Nothing but the fields took their values: no snapshot (its
            // round trip would be most of the call's time), and the next
            // diff does not repeat these values either.
            self.shared
                .views
                .update(tab, |v| v.set_by_agent.extend(set_by_agent))
                .await;
            return Ok(Reply::text(format!("{}\n", said.join("\n"))));
        }
        let mut changes = self.after(tab, &before, navigated, &set_by_agent).await?;
        if changes.is_empty() && !sets_values_only {
            // A click whose only changes were values the agent set before.
            changes = NO_CHANGE.into();
        }
        Ok(Reply::text(format!("{}\n{changes}", said.join("\n"))))
    }

    /// What changed in the tab since `before` (its last snapshot): a diff
    /// on the same page, the new page's listing after a navigation.
    pub(crate) async fn after(
        &self,
        tab: u64,
        before: &View,
        navigated: bool,
        set_by_agent: &[u32],
    ) -> McpResult<String> {
        if navigated {
            wait_ready(self.backend(), tab, before.doc(), LOAD_TIMEOUT).await?;
        }
        let since = before.last.as_ref().map(|s| s.id());
        // The tab's view now (a wait or an earlier step may have moved it on).
        let now = self.shared.views.get(tab).await;
        let snap = page::take(
            self.backend(),
            tab,
            &now,
            &Take {
                since: since.filter(|_| now.doc() == before.doc()),
                settle: navigated,
            },
        )
        .await?;
        let same_doc = before.doc() == Some(snap.doc.as_str());
        // Values set by this action and by earlier ones that took no snapshot.
        let mut own = now.set_by_agent.clone();
        own.extend(set_by_agent);
        let style = listing::DiffStyle {
            header: false,
            set_by_agent: Some(&own),
        };
        let text = match (
            same_doc,
            listing::diff(&snap.snapshot, before, DIFF_BUDGET, &style),
        ) {
            (true, Some(d)) => d,
            _ => page_listing(&snap.snapshot, PAGE_BUDGET),
        };
        self.remember(tab, snap, true).await;
        Ok(text)
    }
}

/// A page's listing with its address first, without positions.
pub fn page_listing(s: &sentience_snapshot_query::Snapshot, budget: usize) -> String {
    format!("Page: {}\n{}", s.url, listing_only(s, budget))
}

/// A page's listing alone, without positions (`listing::compact`).
pub fn listing_only(s: &sentience_snapshot_query::Snapshot, budget: usize) -> String {
    let list = listing::compact(&listing::page(s, &s.elements, budget));
    if list.is_empty() {
        "(no elements to act on)\n".to_string()
    } else {
        list
    }
}

/// The line of an element (for `find`).
pub fn line(e: &Element) -> String {
    element_line(e)
}

/// A page scroll's parameters.
pub fn scroll_delta(
    direction: Option<crate::tools::params::Direction>,
    amount: Option<u32>,
) -> Value {
    use crate::tools::params::Direction;
    let n = f64::from(amount.unwrap_or(600).min(100_000));
    let (dx, dy) = match direction.unwrap_or(Direction::Down) {
        Direction::Down => (0.0, n),
        Direction::Up => (0.0, -n),
        Direction::Right => (n, 0.0),
        Direction::Left => (-n, 0.0),
    };
    json!({"dx": dx, "dy": dy})
}

/// A form field's wish for a checkbox or radio: ticked or not.
fn wants_checked(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "checked" | "1" | "x" => Some(true),
        "false" | "no" | "off" | "unchecked" | "0" | "" => Some(false),
        _ => None,
    }
}

impl SentienceMcp {
    /// `browser_fill_form`: each field by its role — text typed (a select
    /// or listbox picks the option: the extension's `type`), a checkbox or
    /// radio clicked when its state is not the one asked — then one diff.
    pub(crate) async fn fill_form(
        &self,
        p: crate::tools::params::FillFormParams,
        ctx: &RequestContext<RoleServer>,
    ) -> McpResult<Reply> {
        use sentience_snapshot_query::{Checked, Role};
        if p.fields.is_empty() {
            return Err(McpError::BadInput("fields is empty: which fields?".into()));
        }
        let tab = self.tab().await?;
        let mut steps = Vec::new();
        for f in &p.fields {
            let id = f.target.required()?;
            let e = self.element(tab, id).await?;
            match e.role {
                Role::Checkbox | Role::Radio => {
                    let want = wants_checked(&f.value).ok_or_else(|| {
                        McpError::BadInput(format!(
                            "element {id} is a {}: its value is \"true\" or \"false\", not {:?}",
                            e.role.as_str(),
                            f.value
                        ))
                    })?;
                    let is = matches!(e.state.checked, Some(Checked::Bool(true)));
                    if want && !is {
                        steps.push(Step::on(
                            "click",
                            id,
                            json!({}),
                            "Ticked",
                            gate(ToolName::Click, json!({"id": id})),
                        ));
                    } else if !want && is {
                        if e.role == Role::Radio {
                            return Err(McpError::BadInput(format!(
                                "radio {id} cannot be unticked by itself: tick another radio of its group"
                            )));
                        }
                        steps.push(Step::on(
                            "click",
                            id,
                            json!({}),
                            "Unticked",
                            gate(ToolName::Click, json!({"id": id})),
                        ));
                    }
                }
                _ => steps.push(Step::on(
                    "type",
                    id,
                    json!({"text": f.value}),
                    "Filled",
                    gate(ToolName::Type, json!({"id": id, "text": f.value})),
                )),
            }
        }
        if steps.is_empty() {
            return Ok(Reply::text(
                "Every field already had the value asked: nothing to do.",
            ));
        }
        self.act(steps, ctx).await
    }
}
