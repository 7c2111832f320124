//! The multi-step planner over a parsed `Intent` (issue 15): each step is
//! checked against the page and the run history in order; the first one not
//! visibly done decides the next action (or a prerequisite for it: open a
//! collapsed section, tab or menu; scroll it into view). Steps it cannot
//! carry out on this page (submit, search, navigate, find) go back to the
//! goal-driven planner in `mod.rs`. Progress lives only in the history and
//! the page, so a restarted server picks up where it was.

use super::fields::{self, candidate};
use super::find::{is_instruction, reading_order, resolve, role_fit, text_fit};
use super::lookup;
use crate::intent::{Choice, Done, Intent, Role, Step, Target, Value, ValueSource, Verb};
use crate::page::{Page, PageElement};
use crate::policy::{Decision, PolicyContext};
use crate::task::{FieldKind, TaskValue};
use crate::text::{concepts, normalize};
use crate::types::{HistoryEntry, Tool, ToolName};
use serde_json::json;

enum Outcome {
    /// Visibly done; later steps look at history after this index.
    Done(usize),
    Act(Decision),
    /// Not for this planner (or nothing on the page serves it).
    Fallback,
}

/// Verbs this planner carries out itself.
pub fn actionable(intent: &Intent) -> bool {
    intent.steps.iter().any(|s| {
        matches!(
            s.verb,
            Verb::Click
                | Verb::Type
                | Verb::Select
                | Verb::Unselect
                | Verb::Expand
                | Verb::Explore
                | Verb::Focus
                | Verb::Hover
        )
    })
}

/// The next decision for the intent, None to let the goal planner decide.
pub fn next(ctx: &PolicyContext<'_>, intent: &Intent) -> Option<Decision> {
    if intent.steps.is_empty() || !actionable(intent) {
        return None;
    }
    let mut cursor = 0;
    for (k, step) in intent.steps.iter().enumerate() {
        let following = intent.steps.get(k + 1);
        match run_step(ctx, step, following, cursor) {
            Outcome::Done(c) => cursor = cursor.max(c),
            Outcome::Act(d) => return Some(d),
            Outcome::Fallback => return None,
        }
    }
    if intent.done == Done::Answer {
        return None;
    }
    // "Enter X" on a form with one submit button and nothing else asked:
    // a person would submit it.
    if intent.steps.last().is_some_and(|s| s.verb == Verb::Type) {
        let submits: Vec<&PageElement> = ctx
            .page
            .elements
            .iter()
            .filter(|e| !e.disabled && e.input_type == "submit" && !is_instruction(e, ctx.task))
            .collect();
        if let [e] = submits.as_slice() {
            if !clicked_since(ctx.history, 0, e) && !ctx.history.iter().any(|h| h.action == "press")
            {
                return Some(match click(e, ctx.page, ctx.history) {
                    Outcome::Act(d) => d,
                    _ => {
                        Decision::Tool(Tool::new(ToolName::Click, json!({ "id": e.id.to_json() })))
                    }
                });
            }
        }
    }
    let acted = ctx.history.iter().any(|h| {
        matches!(h.action.as_str(), "click" | "type" | "press") && h.success != Some(false)
    });
    acted.then(|| Decision::Finish(format!("Done: {}", intent.describe())))
}

fn tool(name: ToolName, params: serde_json::Value) -> Outcome {
    Outcome::Act(Decision::Tool(Tool::new(name, params)))
}

/// Click, or first bring the element into view.
fn click(e: &PageElement, page: &Page, history: &[HistoryEntry]) -> Outcome {
    let last_scrolled_to = history
        .last()
        .is_some_and(|h| h.action == "scroll" && h.element_id().is_some_and(|id| e.id.is(&id)));
    if super::targets::off_screen(e, page) && !last_scrolled_to {
        let up = e.bbox.is_some_and(|b| b.y < 0.0);
        return tool(
            ToolName::Scroll,
            json!({"direction": if up { "up" } else { "down" }, "amount": e.bbox.map(|b| b.y.abs().round()).unwrap_or(600.0).max(200.0), "id": e.id.to_json()}),
        );
    }
    tool(ToolName::Click, json!({ "id": e.id.to_json() }))
}

fn ok(h: &HistoryEntry) -> bool {
    h.success != Some(false)
}

/// Index of the first successful click after `from` on one of `ids`, or
/// (when the target has a text) on an element that showed that text.
/// `changed`: only a click after which the page changed counts (a click
/// that changed nothing did not do what was asked).
fn clicked_after(
    history: &[HistoryEntry],
    from: usize,
    ids: &[String],
    target: &Target,
    changed: bool,
) -> Option<usize> {
    history.iter().enumerate().skip(from).find_map(|(i, h)| {
        if h.action != "click" || !ok(h) || (changed && h.no_page_change()) {
            return None;
        }
        let by_id = h.element_id().is_some_and(|id| ids.contains(&id));
        let by_text = target.role != Some(Role::Widget)
            && target.text.as_deref().is_some_and(|t| {
                h.element_text.as_deref().is_some_and(|et| {
                    let n = normalize(et);
                    let w = normalize(t);
                    !w.is_empty()
                        && (n == w || (!concepts(&w).is_empty() && concepts(&n) == concepts(&w)))
                })
            });
        (by_id || by_text).then_some(i)
    })
}

fn clicked_since(history: &[HistoryEntry], from: usize, e: &PageElement) -> bool {
    history
        .iter()
        .skip(from)
        .any(|h| h.action == "click" && h.element_id().is_some_and(|id| e.id.is(&id)))
}

/// Clicked since `from`, and the page changed after it.
fn clicked_changed(history: &[HistoryEntry], from: usize, e: &PageElement) -> bool {
    history.iter().skip(from).any(|h| {
        h.action == "click" && !h.no_page_change() && h.element_id().is_some_and(|id| e.id.is(&id))
    })
}

fn last_touch(history: &[HistoryEntry], ids: &[String]) -> Option<usize> {
    history
        .iter()
        .rposition(|h| h.element_id().is_some_and(|id| ids.contains(&id)))
}

/// Just after the last click since `from` (or `from`).
fn after_last_click(history: &[HistoryEntry], from: usize) -> usize {
    history
        .iter()
        .rposition(|h| h.action == "click")
        .map(|i| i + 1)
        .unwrap_or(from)
        .max(from)
}

/// Best candidates above a floor (the floor keeps a weak text match from
/// standing in for the target).
fn best<'p>(cands: &[(f64, &'p PageElement)], floor: f64) -> Option<&'p PageElement> {
    cands.first().filter(|(s, _)| *s >= floor).map(|(_, e)| *e)
}

fn run_step(
    ctx: &PolicyContext<'_>,
    step: &Step,
    following: Option<&Step>,
    cursor: usize,
) -> Outcome {
    let page = ctx.page;
    match step.verb {
        Verb::Click | Verb::Hover | Verb::Focus => click_step(ctx, step, cursor),
        Verb::Type => type_step(ctx, step, cursor),
        Verb::Select | Verb::Unselect => select_step(ctx, step, cursor),
        Verb::Expand => expand_step(ctx, step, following, cursor),
        Verb::Explore => explore_step(ctx, step, following, cursor),
        Verb::Scroll => {
            if ctx
                .history
                .iter()
                .skip(cursor)
                .any(|h| h.action == "scroll")
            {
                Outcome::Done(ctx.history.len())
            } else {
                let up = step.arg.as_deref() == Some("up");
                tool(
                    ToolName::Scroll,
                    json!({"direction": if up { "up" } else { "down" }, "amount": 600}),
                )
            }
        }
        Verb::Navigate => match &step.arg {
            Some(u) if super::same_url(&page.url, u) => Outcome::Done(cursor),
            _ => Outcome::Fallback,
        },
        // Mid-task "find X" is the looking the next step does anyway.
        Verb::Find if following.is_some() => Outcome::Done(cursor),
        Verb::Find | Verb::Submit | Verb::Search => Outcome::Fallback,
    }
}

fn target_ok(step: &Step) -> impl Fn(&PageElement) -> bool + '_ {
    move |e: &PageElement| match step.verb {
        Verb::Focus => e.is_text_entry(),
        _ => true,
    }
}

fn click_step(ctx: &PolicyContext<'_>, step: &Step, cursor: usize) -> Outcome {
    let (page, history) = (ctx.page, ctx.history);
    if let Some(key) = step.arg.as_deref().and_then(|a| a.strip_prefix("key:")) {
        if let Some(i) = history
            .iter()
            .enumerate()
            .skip(cursor)
            .find(|(_, h)| h.action == "press")
            .map(|(i, _)| i)
        {
            return Outcome::Done(i + 1);
        }
        return tool(ToolName::Press, json!({ "key": key }));
    }
    let mut target = step.target.clone();
    if target.text.is_none() && target.role.is_none() && step.verb != Verb::Focus {
        target.role = Some(Role::Button);
    }
    let filter = target_ok(step);
    let cands = resolve(page, &target, ctx.task, ctx.avoid, &filter);
    let top = cands.first().map(|(s, _)| *s).unwrap_or(0.0);
    let ids: Vec<String> = cands
        .iter()
        .filter(|(s, _)| *s >= top * 0.9 && *s >= 0.45)
        .map(|(_, e)| e.id.key())
        .collect();
    let must_change = step.verb == Verb::Click;
    if let Some(i) = clicked_after(history, cursor, &ids, &target, must_change) {
        return Outcome::Done(i + 1);
    }
    if let Some(e) = best(&cands, 0.45) {
        return click(e, page, history);
    }
    reveal(ctx, &target, cursor)
}

/// The target is not on the page: open what may hide it (collapsed
/// sections, unselected tabs, menus), or the form's submit button when the
/// target names a submit action. Else let the goal planner scroll or ask.
fn reveal(ctx: &PolicyContext<'_>, target: &Target, cursor: usize) -> Outcome {
    let (page, history) = (ctx.page, ctx.history);
    if let Some(t) = &target.text {
        let c = concepts(t);
        let submitish = c.iter().any(|w| {
            matches!(
                w.as_str(),
                "submit" | "login" | "search" | "continue" | "ok" | "register" | "buy"
            )
        });
        if submitish {
            let submits: Vec<&PageElement> = page
                .elements
                .iter()
                .filter(|e| {
                    !e.disabled
                        && (e.input_type == "submit"
                            || (e.tag == "button" && e.input_type != "button"))
                        && !is_instruction(e, ctx.task)
                })
                .collect();
            if let [e] = submits.as_slice() {
                if !clicked_since(history, cursor, e) {
                    return click(e, page, history);
                }
            }
        }
    }
    let mut hidden: Vec<&PageElement> = page
        .elements
        .iter()
        .filter(|e| !e.disabled && !e.is_text_entry() && !ctx.avoid.iter().any(|a| e.id.is(a)))
        .filter(|e| {
            e.state.expanded == Some(false)
                || (e.state.selected == Some(false) && role_fit(e, Role::Tab) > 0.0)
                || (e.role == "button" && candidate(e).is_menu())
        })
        .filter(|e| !clicked_since(history, 0, e))
        .collect();
    let _ = cursor;
    hidden.sort_by(|a, b| reading_order(a, b));
    if let Some(r) = target.role {
        // Prefer the opener of the kind named ("the menu", "the tab").
        if let Some(pos) = hidden.iter().position(|e| role_fit(e, r) >= 1.0) {
            let e = hidden[pos];
            return click(e, page, history);
        }
    }
    if let Some(e) = hidden.first() {
        return click(e, page, history);
    }
    // A named target that is not on screen: scroll to look for it (the
    // snapshot holds what is near the viewport first), a few times.
    let scrolls = history
        .iter()
        .skip(cursor)
        .filter(|h| h.action == "scroll")
        .count();
    if target.text.is_some() && scrolls < MAX_LOOK_SCROLLS {
        return tool(
            ToolName::Scroll,
            json!({"direction": "down", "amount": 600}),
        );
    }
    Outcome::Fallback
}

/// Scrolls the step planner makes looking for a named target.
const MAX_LOOK_SCROLLS: usize = 10;

fn task_value(v: &Value, text: &str) -> TaskValue {
    TaskValue {
        kind: v.field,
        label: v.label.clone(),
        value: text.to_string(),
    }
}

fn typed_into(history: &[HistoryEntry], e: &PageElement, text: &str, url: &str) -> bool {
    history.iter().any(|h| {
        h.action == "type"
            && ok(h)
            && h.param_str("text") == Some(text)
            && h.element_id().is_some_and(|id| e.id.is(&id))
            && h.url.as_deref() == Some(url)
    })
}

fn holds(e: &PageElement, text: &str, history: &[HistoryEntry], page: &Page) -> bool {
    (!text.is_empty() && e.value == text) || typed_into(history, e, text, &page.url)
}

fn type_step(ctx: &PolicyContext<'_>, step: &Step, cursor: usize) -> Outcome {
    let (page, history) = (ctx.page, ctx.history);
    let mut taken: Vec<String> = Vec::new();
    let mut touched: Vec<String> = Vec::new();
    for v in &step.values {
        if let ValueSource::Pattern { starts, ends } = &v.source {
            match pattern_value(ctx, step, starts.as_deref(), ends.as_deref(), cursor) {
                Outcome::Done(_) => continue,
                other => return other,
            }
        }
        let text = match &v.source {
            ValueSource::Literal(_) => v.text().unwrap_or_default(),
            ValueSource::Lookup { what, key } => match lookup::find(page, what, key, ctx.task) {
                Some(t) => crate::intent::apply(&t, &v.transforms),
                None => return Outcome::Fallback,
            },
            ValueSource::Pattern { .. } => continue,
        };
        let kind_ok =
            |e: &PageElement| v.field != FieldKind::Password || e.input_type == "password";
        if step.target.all {
            let role = step.target.role.unwrap_or(Role::Field);
            let mut fields: Vec<&PageElement> = page
                .elements
                .iter()
                .filter(|e| {
                    e.is_text_entry() && !e.disabled && role_fit(e, role) > 0.0 && kind_ok(e)
                })
                .collect();
            if fields.is_empty() {
                fields = page
                    .elements
                    .iter()
                    .filter(|e| e.is_text_entry() && !e.disabled)
                    .collect();
            }
            fields.sort_by(|a, b| reading_order(a, b));
            for f in &fields {
                touched.push(f.id.key());
                if !holds(f, &text, history, page) {
                    return tool(ToolName::Type, json!({"id": f.id.to_json(), "text": text}));
                }
            }
            continue;
        }
        let tv = task_value(v, &text);
        if let Some(id) = fields::entered(&tv, page, history) {
            taken.push(id.clone());
            touched.push(id);
            continue;
        }
        let field = if step.target.ordinal.is_some() || (step.target.role == Some(Role::TextArea)) {
            let t = Target {
                text: None,
                ..step.target.clone()
            };
            best(
                &resolve(page, &t, ctx.task, ctx.avoid, &|e: &PageElement| {
                    e.is_text_entry()
                }),
                0.3,
            )
        } else {
            fields::field_for(&tv, page, &taken, ctx.avoid).or_else(|| {
                page.elements
                    .iter()
                    .filter(|e| {
                        e.is_text_entry()
                            && !e.disabled
                            && !taken.contains(&e.id.key())
                            && e.value.is_empty()
                            && kind_ok(e)
                    })
                    .min_by(|a, b| reading_order(a, b))
            })
        };
        match field {
            Some(e) => return tool(ToolName::Type, json!({"id": e.id.to_json(), "text": text})),
            None => return Outcome::Fallback,
        }
    }
    Outcome::Done(
        last_touch(history, &touched)
            .map(|i| i + 1)
            .unwrap_or(cursor),
    )
}

fn fits(s: &str, starts: Option<&str>, ends: Option<&str>) -> bool {
    let l = s.trim().to_lowercase();
    !l.is_empty()
        && starts.is_none_or(|p| l.starts_with(&p.to_lowercase()))
        && ends.is_none_or(|p| l.ends_with(&p.to_lowercase()))
}

/// "an item that starts with Sa and ends with ino": type the start, then
/// choose the suggestion that fits (autocomplete), done once the field holds
/// a fitting value.
fn pattern_value(
    ctx: &PolicyContext<'_>,
    step: &Step,
    starts: Option<&str>,
    ends: Option<&str>,
    cursor: usize,
) -> Outcome {
    let (page, history) = (ctx.page, ctx.history);
    let mut fields: Vec<&PageElement> = page
        .elements
        .iter()
        .filter(|e| e.is_text_entry() && !e.disabled)
        .collect();
    fields.sort_by(|a, b| reading_order(a, b));
    let field = match step.target.ordinal {
        Some(_) => best(
            &resolve(
                page,
                &Target {
                    text: None,
                    ..step.target.clone()
                },
                ctx.task,
                ctx.avoid,
                &|e: &PageElement| e.is_text_entry(),
            ),
            0.3,
        ),
        None => fields.first().copied(),
    };
    let Some(field) = field else {
        return Outcome::Fallback;
    };
    let suggestion = page
        .elements
        .iter()
        .filter(|e| {
            !e.is_text_entry()
                && !ctx.avoid.iter().any(|a| e.id.is(a))
                && !is_instruction(e, ctx.task)
        })
        .filter(|e| fits(e.label(), starts, ends))
        .min_by(|a, b| reading_order(a, b));
    if fits(&field.value, starts, ends)
        && suggestion.is_none_or(|s| normalize(s.label()) == normalize(&field.value))
        && history.last().is_some_and(|h| h.action == "click")
    {
        return Outcome::Done(after_last_click(history, cursor));
    }
    if let Some(s) = suggestion {
        if !clicked_since(history, cursor, s) {
            return click(s, page, history);
        }
        return Outcome::Done(after_last_click(history, cursor));
    }
    let prefix = starts.or(ends).unwrap_or("");
    let typed = typed_into(history, field, prefix, &page.url);
    if !typed {
        return tool(
            ToolName::Type,
            json!({"id": field.id.to_json(), "text": prefix}),
        );
    }
    // Typed, nothing to choose yet: look again once (suggestions may be late).
    if history.last().is_some_and(|h| h.action == "type") {
        return tool(ToolName::Observe, json!({}));
    }
    if fits(&field.value, starts, ends) {
        return Outcome::Done(after_last_click(history, cursor));
    }
    Outcome::Fallback
}

fn checkable(e: &PageElement) -> bool {
    matches!(
        e.role.as_str(),
        "checkbox" | "radio" | "option" | "menuitemcheckbox" | "menuitemradio" | "switch"
    ) || matches!(e.input_type.as_str(), "checkbox" | "radio")
}

fn is_checked(e: &PageElement) -> bool {
    matches!(e.state.checked, Some(snapshot_query::Checked::True)) || e.state.selected == Some(true)
}

fn select_step(ctx: &PolicyContext<'_>, step: &Step, cursor: usize) -> Outcome {
    let (page, history) = (ctx.page, ctx.history);
    let want = step.verb == Verb::Select;
    let boxes: Vec<&PageElement> = page
        .elements
        .iter()
        .filter(|e| checkable(e) && !e.disabled)
        .collect();
    let mut touched: Vec<String> = Vec::new();
    let toggle = |e: &PageElement| click(e, page, history);
    match &step.choice {
        Some(Choice::Exactly(items)) => {
            let mut wanted: Vec<String> = Vec::new();
            let mut found_any = false;
            for item in items {
                // A checkbox / radio / option labelled with the item.
                let m = boxes
                    .iter()
                    .map(|e| (text_fit(e, item), *e))
                    .filter(|(s, _)| *s >= 0.8)
                    .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| reading_order(b.1, a.1)));
                if let Some((_, e)) = m {
                    found_any = true;
                    wanted.push(e.id.key());
                    touched.push(e.id.key());
                    if is_checked(e) != want {
                        return toggle(e);
                    }
                    continue;
                }
                // An option of a <select> / combobox.
                let sel = page.elements.iter().find(|e| {
                    !e.disabled
                        && e.state.options.iter().any(|o| {
                            normalize(&o.text) == normalize(item)
                                || normalize(&o.value) == normalize(item)
                        })
                });
                if let Some(s) = sel {
                    found_any = true;
                    touched.push(s.id.key());
                    let chosen = s.state.options.iter().any(|o| {
                        o.selected
                            && (normalize(&o.text) == normalize(item)
                                || normalize(&o.value) == normalize(item))
                    });
                    if !chosen && want {
                        return tool(ToolName::Type, json!({"id": s.id.to_json(), "text": item}));
                    }
                    continue;
                }
                // Any other element showing exactly the item (custom lists).
                let other = page
                    .elements
                    .iter()
                    .filter(|e| !e.is_text_entry() && !e.disabled && !is_instruction(e, ctx.task))
                    .find(|e| text_fit(e, item) >= 0.99);
                if let Some(e) = other {
                    found_any = true;
                    touched.push(e.id.key());
                    if !clicked_since(history, cursor, e) && want {
                        return click(e, page, history);
                    }
                    continue;
                }
                if !found_any {
                    return reveal(
                        ctx,
                        &Target {
                            text: Some(item.clone()),
                            ..step.target.clone()
                        },
                        cursor,
                    );
                }
            }
            // Exactly the set: untick checkboxes that are not in it.
            if want {
                if let Some(e) = boxes.iter().find(|e| {
                    (e.role == "checkbox" || e.input_type == "checkbox")
                        && is_checked(e)
                        && !wanted.contains(&e.id.key())
                }) {
                    return toggle(e);
                }
            }
            if !found_any {
                return Outcome::Fallback;
            }
        }
        Some(Choice::Nothing) => {
            if let Some(e) = boxes.iter().find(|e| is_checked(e) && e.role == "checkbox") {
                return toggle(e);
            }
        }
        Some(Choice::All) => {
            if let Some(e) = boxes
                .iter()
                .find(|e| is_checked(e) != want && e.role != "radio")
            {
                return toggle(e);
            }
        }
        Some(Choice::Like(words)) => {
            let wc: Vec<String> = words.iter().flat_map(|w| concepts(w)).collect();
            for e in &boxes {
                let ec = concepts(e.label());
                let like = !ec.is_empty() && ec.iter().all(|c| wc.contains(c));
                touched.push(e.id.key());
                if like && is_checked(e) != want {
                    return toggle(e);
                }
            }
        }
        None => {
            let t = step.target.clone();
            let cands = resolve(page, &t, ctx.task, ctx.avoid, &|e: &PageElement| {
                checkable(e) || e.role == "combobox"
            });
            match best(&cands, 0.45) {
                Some(e) => {
                    touched.push(e.id.key());
                    if checkable(e) && is_checked(e) != want {
                        return toggle(e);
                    }
                    if !checkable(e) && !clicked_since(history, cursor, e) {
                        return click(e, page, history);
                    }
                }
                None => return reveal(ctx, &t, cursor),
            }
        }
    }
    Outcome::Done(
        last_touch(history, &touched)
            .map(|i| i + 1)
            .unwrap_or(cursor),
    )
}

/// Is the next step's target on the page already (then nothing more needs opening)?
fn next_visible(ctx: &PolicyContext<'_>, following: Option<&Step>) -> bool {
    let Some(n) = following else {
        return false;
    };
    if n.target.text.is_none() {
        return false;
    }
    let cands = resolve(ctx.page, &n.target, ctx.task, ctx.avoid, &|_| true);
    cands.first().is_some_and(|(s, _)| *s >= 0.45)
}

fn expand_step(
    ctx: &PolicyContext<'_>,
    step: &Step,
    following: Option<&Step>,
    cursor: usize,
) -> Outcome {
    let (page, history) = (ctx.page, ctx.history);
    if step.target.all && following.is_some() {
        return explore_step(ctx, step, following, cursor);
    }
    // What the next step acts on is not the thing to open.
    let next_text = following.and_then(|f| f.target.text.clone());
    let not_next = |e: &PageElement| {
        !e.is_text_entry() && next_text.as_deref().is_none_or(|t| text_fit(e, t) < 0.8)
    };
    let cands = resolve(page, &step.target, ctx.task, ctx.avoid, &not_next);
    let matching: Vec<&PageElement> = cands
        .iter()
        .filter(|(s, _)| *s >= 0.45)
        .map(|(_, e)| *e)
        .collect();
    if let Some(e) = matching
        .iter()
        .find(|e| clicked_changed(history, cursor, e) || e.state.expanded == Some(true))
    {
        let i = last_touch(history, &[e.id.key()])
            .map(|i| i + 1)
            .unwrap_or(cursor);
        return Outcome::Done(i);
    }
    let collapsed = matching
        .iter()
        .find(|e| e.state.expanded == Some(false))
        .or(matching.first());
    match collapsed {
        Some(e) => click(e, page, history),
        None => reveal(ctx, &step.target, cursor),
    }
}

/// Go through tabs / sections / tree nodes until the next step's target shows.
fn explore_step(
    ctx: &PolicyContext<'_>,
    step: &Step,
    following: Option<&Step>,
    cursor: usize,
) -> Outcome {
    let (page, history) = (ctx.page, ctx.history);
    if next_visible(ctx, following) {
        // Done with the last click that was not on the next step's target.
        let next_text = following.and_then(|f| f.target.text.as_deref());
        let last = history.iter().enumerate().skip(cursor).filter(|(_, h)| {
            h.action == "click"
                && !next_text.is_some_and(|t| {
                    h.element_text
                        .as_deref()
                        .is_some_and(|et| normalize(et) == normalize(t))
                })
        });
        return Outcome::Done(last.map(|(i, _)| i + 1).next_back().unwrap_or(cursor));
    }
    let role = step.target.role;
    let mut openers: Vec<&PageElement> = page
        .elements
        .iter()
        .filter(|e| !e.disabled && !e.is_text_entry() && !ctx.avoid.iter().any(|a| e.id.is(a)))
        .filter(|e| {
            e.state.expanded == Some(false)
                || e.state.selected == Some(false)
                || e.role == "tab"
                || role.is_some_and(|r| r == Role::Tab && role_fit(e, r) >= 0.8)
        })
        .filter(|e| role.is_none_or(|r| role_fit(e, r) > 0.0))
        .filter(|e| !clicked_since(history, cursor, e) && !is_checked(e))
        .collect();
    openers.sort_by(|a, b| reading_order(a, b));
    match openers.first() {
        Some(e) => click(e, page, history),
        None => Outcome::Done(cursor),
    }
}

/// Elements ranked by the parsed goal, best first: for each step with a
/// target, its best matches; for values, their fields. For the LLM prompt.
pub fn ranked<'p>(
    page: &'p Page,
    intent: &Intent,
    task: &str,
    limit: usize,
) -> Vec<&'p PageElement> {
    let mut out: Vec<&PageElement> = Vec::new();
    let push = |e: &'p PageElement, out: &mut Vec<&'p PageElement>| {
        if out.len() < limit && !out.iter().any(|o| o.id == e.id) {
            out.push(e);
        }
    };
    for step in &intent.steps {
        if !step.target.is_empty() && step.verb != Verb::Type {
            for (_, e) in resolve(page, &step.target, task, &[], &|_| true)
                .into_iter()
                .filter(|(s, _)| *s >= 0.45)
                .take(3)
            {
                push(e, &mut out);
            }
        }
        if let Some(Choice::Exactly(items)) = &step.choice {
            for item in items {
                if let Some(e) = page
                    .elements
                    .iter()
                    .filter(|e| !e.is_text_entry())
                    .find(|e| text_fit(e, item) >= 0.8)
                {
                    push(e, &mut out);
                }
            }
        }
        let mut taken = Vec::new();
        for v in &step.values {
            let text = v.text().unwrap_or_default();
            if let Some(e) = fields::field_for(&task_value(v, &text), page, &taken, &[]) {
                taken.push(e.id.key());
                push(e, &mut out);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Baseline;
    use crate::types::RunMode;

    fn page(elements: serde_json::Value, text: &str) -> Page {
        Page::from_json(
            &json!({"url": "http://t/", "title": "t", "visibleText": text, "elements": elements}),
        )
        .expect("page")
    }

    fn decide(task: &str, p: &Page, history: &[HistoryEntry]) -> Decision {
        let ctx = PolicyContext {
            task,
            mode: RunMode::Autonomous,
            page: p,
            history,
            reflections: &[],
            avoid: &[],
            baseline: &Baseline::default(),
            step: 0,
            user_answers: &[],
        };
        crate::planner::plan(&ctx)
    }

    fn clicked(id: &str, text: &str) -> HistoryEntry {
        HistoryEntry {
            step_number: 1,
            action: "click".into(),
            observation: "Clicked".into(),
            timestamp: 0,
            parameters: json!({ "id": id }).as_object().cloned(),
            success: Some(true),
            element_text: Some(text.into()),
            bbox: None,
            url: Some("http://t/".into()),
            page_before: Some("a".into()),
            page_after: Some("b".into()),
        }
    }

    #[test]
    fn the_instruction_shown_on_the_page_is_no_evidence() {
        let task = r#"Switch between the tabs to find and click on the link "ut.""#;
        let p = page(
            json!([
                {"id": "t1", "tag": "li", "role": "button", "text": "Tab #1"},
                {"id": "t2", "tag": "li", "role": "button", "text": "Tab #2"},
            ]),
            &format!("{task} Tab #1 Tab #2 Lorem ipsum"),
        );
        let d = decide(task, &p, &[]);
        assert!(matches!(d, Decision::Tool(_)), "{d:?}");
    }

    #[test]
    fn click_the_button_finds_it_by_role_and_finishes_after() {
        let p = page(
            json!([{"id": "b", "tag": "button", "text": "Click Me!"}]),
            "Click the button.",
        );
        let d = decide("Click the button.", &p, &[]);
        assert_eq!(
            d,
            Decision::Tool(Tool::new(ToolName::Click, json!({"id": "b"})))
        );
        let d = decide("Click the button.", &p, &[clicked("b", "Click Me!")]);
        assert!(matches!(d, Decision::Finish(_)), "{d:?}");
    }

    #[test]
    fn a_set_is_ticked_exactly_then_submitted() {
        let p = page(
            json!([
                {"id": "a", "tag": "input", "type": "checkbox", "text": "Apples"},
                {"id": "b", "tag": "input", "type": "checkbox", "text": "Bananas"},
                {"id": "s", "tag": "button", "text": "Submit"},
            ]),
            "",
        );
        let d = decide("Select Apples and click Submit", &p, &[]);
        assert_eq!(
            d,
            Decision::Tool(Tool::new(ToolName::Click, json!({"id": "a"})))
        );
    }
}
