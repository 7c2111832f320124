//! Type steps: literal values into their fields, values read off the page,
//! and patterns completed from suggestions.

use super::{after_last_click, best, click, clicked_since, last_touch, ok, tool, Outcome};
use crate::intent::{Role, Step, Target, Value, ValueSource};
use crate::page::{Page, PageElement};
use crate::planner::fields;
use crate::planner::find::{is_instruction, reading_order, resolve, role_fit};
use crate::planner::lookup;
use crate::policy::PolicyContext;
use crate::system2::score::field_kind;
use crate::task::{FieldKind, TaskValue};
use crate::text::normalize;
use crate::types::{HistoryEntry, ToolName};
use serde_json::json;

pub(super) fn task_value(v: &Value, text: &str) -> TaskValue {
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

pub(super) fn type_step(ctx: &PolicyContext<'_>, step: &Step, cursor: usize) -> Outcome {
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
                            && fallback_fits(v.field, e)
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

/// May a value of this kind go into a field `field_for` did not pick (the
/// first free field, for tasks that name no kind)? A password only into a
/// password field and nothing else into one; a search box only takes a
/// search term or an unlabelled value: "Log in as "alice"" on a front page
/// with a search box is not a search (tests/e2e/browse.test.mjs, the demo
/// store login; crates/browse/tests/builtin.rs).
fn fallback_fits(kind: FieldKind, e: &PageElement) -> bool {
    if (kind == FieldKind::Password) != (e.input_type == "password") {
        return false;
    }
    let search_box = field_kind(&fields::candidate(e)) == Some(FieldKind::Search);
    !search_box || matches!(kind, FieldKind::Search | FieldKind::Other)
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
pub(super) fn pattern_value(
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
