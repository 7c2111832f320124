//! type / enter / fill: each value into its field, skipped when the field
//! holds it already. Values read off the page ("the phone number of Bob"),
//! patterns completed from suggestions ("starts with Sa"), phrases split
//! against the page's labels ("team size 2-10"), dates and times in the
//! form the field takes, a calendar for a date field one cannot type into,
//! an autocomplete's suggestion chosen once the value is typed. Values
//! whose field is on a later page of the form (a checkout's payment step)
//! wait: the form's continue button goes there.

use super::{click, off_screen, reveal, Outcome};
use crate::intent::{Role, Target, Value, ValueSource};
use crate::planner::context::{ok, Cx};
use crate::planner::fields::{entered, field_for, select_naming, split_phrase, Placed};
use crate::planner::find::{best, resolve, role_fit, text_fit};
use crate::planner::form::submit_control;
use crate::planner::layout::reading_order;
use crate::planner::lookup;
use crate::planner::values::{date, field_shape, for_field, time, Shape};
use crate::task::FieldKind;
use crate::text::normalize;
use crate::types::{HistoryEntry, Tool};
use sentience_snapshot_core::Observed;

mod apply;
pub use apply::is_own_button;
mod calendar;
mod date_parts;
mod popup;
mod row;
mod slider;
mod stepper;
mod suggest;
mod time_parts;

/// Where one value stands.
enum Place<'p> {
    /// In this field (or typed on an earlier page: `None`).
    Done(Option<&'p Observed>),
    /// In these fields, one part each (a date's Month / Day / Year boxes):
    /// none of them takes another value of the task.
    Parts(Vec<&'p Observed>),
    Act(Outcome),
    /// No field for it on this page.
    Missing(String),
}

pub fn step(
    cx: &Cx<'_>,
    values: &[Value],
    field: &Target,
    cursor: usize,
    following: super::Following<'_>,
) -> Outcome {
    let mut taken: Vec<&Observed> = Vec::new();
    let mut pending: Vec<String> = Vec::new();
    let texts: Vec<String> = values.iter().filter_map(|v| v.text()).collect();
    // A tab the task names ("the catalogue" → "Catalogue") is the scope of
    // the box its values go into: selected first (`hidden_form.rs`).
    if let Some(tab) = super::hidden_form::named_tab(cx, &texts) {
        return click(cx, tab);
    }
    for v in values {
        if field.all {
            if let Some(o) = every_field(cx, v, field, &mut taken) {
                return o;
            }
            continue;
        }
        match place(cx, v, values, field, &taken, cursor) {
            Place::Done(Some(e)) => taken.push(e),
            Place::Done(None) => {}
            Place::Parts(es) => taken.extend(es),
            Place::Act(o) => return o,
            Place::Missing(what) => pending.push(what),
        }
    }
    // A password goes into its confirmation field too ("Confirm password").
    for v in values.iter().filter(|v| v.field == FieldKind::Password) {
        let Some(text) = v.text() else { continue };
        let other = cx.page.elements.iter().find(|e| {
            crate::planner::fields::is_password(e)
                && e.is_text_entry()
                && !e.is_disabled()
                && !taken.iter().any(|t| std::ptr::eq(*t, *e))
                && !cx.holds(e, &text)
                && taken.iter().any(|t| crate::planner::fields::is_password(t))
        });
        if let Some(e) = other {
            return Outcome::Act(Tool::Type { id: cx.id(e), text });
        }
        if let Some(e) = cx.page.elements.iter().find(|e| {
            crate::planner::fields::is_password(e)
                && cx.holds(e, &text)
                && !taken.iter().any(|t| std::ptr::eq(*t, *e))
        }) {
            taken.push(e);
        }
    }
    // The form was sent and the page moved on (its fields are gone): the
    // values it took are done, whatever the page shows now; a "Book"
    // button among the results is no way to the form's next page.
    if !pending.is_empty() && taken.is_empty() {
        if let Some(k) = moved_on(cx, cursor) {
            return Outcome::Done(k);
        }
    }
    // A field's own button ("Apply" beside a promo code, "Find address"
    // beside a postcode) takes its value in before anything else is done.
    if let Some(b) = apply::unpressed(cx, &taken) {
        if !cx.useless_click(cursor, b) {
            return click(cx, b);
        }
    }
    if !pending.is_empty() {
        // Some values are for the next page of this form: go on to it.
        if !taken.is_empty() {
            if let Some(b) = submit_control(cx, &taken, "continue") {
                let clicked = cx.clicked_changed(cursor, b).is_some();
                if !clicked && !cx.useless_click(cursor, b) {
                    return click(cx, b);
                }
            }
        }
        let nothing_here = taken.is_empty();
        if nothing_here {
            // The field is a thing's ("the role of Priya Shah") and the page
            // does not show that thing: it is further down a list (in a box
            // that scrolls on its own, on its next page), not in another
            // form here (an "Invite a member" form has a role too).
            if thing_not_shown(cx, field).is_some() {
                return reveal(cx, field, cursor);
            }
            if let Some(o) = act_on_item(cx, values, cursor) {
                return o;
            }
            // The form is elsewhere: the control that leads to what the
            // task does ("Log in" on a front page for a log-in task).
            if let Some(crate::intent::Step::Submit { phrase, button }) = following.get() {
                let what = button.as_deref().unwrap_or(phrase);
                if let Some(e) = super::reveal::naming(cx, what) {
                    return click(cx, e);
                }
            }
            // No box to type into at all: the form is behind a control
            // ("Log in", "New ticket"; `hidden_form.rs`).
            if let Some(e) = super::hidden_form::opener_of_form(cx, &texts) {
                return click(cx, e);
            }
            let first = pending[0].clone();
            return reveal(
                cx,
                &Target {
                    text: Some(first),
                    ..Target::default()
                },
                cursor,
            );
        }
        // The rest has no field anywhere we can reach.
        return Outcome::Stuck(format!("no field for {}", pending.join(", ")));
    }
    Outcome::Done(cx.last_touch(&taken).map(|i| i + 1).unwrap_or(cursor))
}

/// A value the task named that nothing took (`planner/complete.rs`), with
/// the words before it (`label`): the control that takes it, as one
/// action — an option, a radio button or check box that says it, a
/// select's option, a custom listbox opened and its option chosen. A text
/// box only when it is shown, empty and named by the clause's words ("with
/// the message "…"" → Message) or made for the value's kind (a date into
/// a box that spells MM/DD/YYYY), as fields shown once a switch is on are
/// (`named_box`); never another text box, nor opening a tab for it: without
/// the field its clause named, that would be a guess.
pub fn complete_value(cx: &Cx<'_>, value: &str, label: &str) -> Option<Tool> {
    if let Some(e) = named_box(cx, value, label) {
        return Some(Tool::Type {
            id: cx.id(e),
            text: for_field(e, value),
        });
    }
    let placed = put(
        cx,
        value,
        FieldKind::Other,
        label,
        &Target::default(),
        &[],
        0,
        &[],
    );
    let Place::Act(Outcome::Act(t)) = placed else {
        return None;
    };
    let e = t.element().and_then(|id| cx.page.find(&id.key()))?;
    let says = crate::text::contains_words(e.label(), value);
    let takes = match &t {
        Tool::Type { .. } => e.is_select(),
        Tool::Click { .. } | Tool::Scroll { .. } => {
            popup::is_trigger(e) || e.is_checkable() || e.facts.aria_role == "option" || says
        }
        _ => false,
    };
    takes.then_some(t)
}

/// For a value the task language left without a step (`complete_value`):
/// the shown, empty text box its clause names by a content word ("the
/// message" → "Message"), else, for a date, the first empty box in reading
/// order made for dates (`type="date"` or a placeholder that spells the
/// form: "from D1 to D2" → "First day", then "Last day"). A search box is
/// never one: typing a form's value there sends a search.
fn named_box<'p>(cx: &Cx<'p>, value: &str, label: &str) -> Option<&'p Observed> {
    let mut boxes: Vec<&Observed> = cx
        .page
        .elements
        .iter()
        .filter(|e| {
            e.is_text_entry()
                && !e.is_disabled()
                && !cx.avoided(e)
                && !cx.is_instruction(e)
                && e.facts.input_type != "search"
                && e.value().trim().is_empty()
        })
        .collect();
    boxes.sort_by(|a, b| reading_order(a, b));
    let want = crate::text::concepts(label);
    let named = boxes.iter().find(|e| {
        let have = crate::text::concepts(&e.descriptors());
        want.iter().any(|w| have.contains(w))
    });
    if let Some(e) = named {
        return Some(e);
    }
    date(value)?;
    boxes
        .into_iter()
        .find(|e| e.facts.input_type == "date" || crate::planner::values::date_pattern(e).is_some())
}

/// Opens a listbox of options one cannot type into (`popup.rs`).
pub fn is_listbox_trigger(e: &Observed) -> bool {
    popup::is_trigger(e)
}

/// "Suspend "Priya Nair"", "Revoke the key "ci-deploy"": read as a value
/// for a field named by the verb, on a page that has no field to type it
/// into at all, while the value is written on the page — an item of a list
/// or table. The task acts on that item: the control its words name
/// ("Suspend", "Revoke"), in the item's row or behind the row's menu.
fn act_on_item(cx: &Cx<'_>, values: &[Value], cursor: usize) -> Option<Outcome> {
    let [v] = values else { return None };
    let ValueSource::Literal(_) = &v.source else {
        return None;
    };
    let text = v.text()?;
    let any_entry = cx
        .page
        .elements
        .iter()
        .any(|e| e.is_text_entry() && !e.is_disabled());
    let verb = v.label.trim();
    if any_entry || verb.is_empty() || cx.layout.occurrences(&text).is_empty() {
        return None;
    }
    let target = Target {
        text: Some(verb.to_string()),
        relation: Some((crate::intent::Relation::Of, text)),
        ..Target::default()
    };
    Some(super::click::step(
        cx,
        &target,
        crate::intent::Touch::Click,
        cursor,
        true,
        None,
    ))
}

/// "Enter the password into both text fields": every field of the kind.
fn every_field<'p>(
    cx: &Cx<'p>,
    v: &Value,
    field: &Target,
    taken: &mut Vec<&'p Observed>,
) -> Option<Outcome> {
    let text = v.text()?;
    let role = field.role.unwrap_or(Role::Field);
    let kind_ok =
        |e: &Observed| v.field != FieldKind::Password || crate::planner::fields::is_password(e);
    let mut fields: Vec<&Observed> = cx
        .page
        .elements
        .iter()
        .filter(|e| e.is_text_entry() && !e.is_disabled() && role_fit(e, role) > 0.0 && kind_ok(e))
        .collect();
    if fields.is_empty() {
        fields = cx
            .page
            .elements
            .iter()
            .filter(|e| e.is_text_entry() && !e.is_disabled())
            .collect();
    }
    fields.sort_by(|a, b| reading_order(a, b));
    for f in fields {
        taken.push(f);
        if !cx.holds(f, &text) {
            return Some(Outcome::Act(Tool::Type { id: cx.id(f), text }));
        }
    }
    None
}

fn place<'p>(
    cx: &Cx<'p>,
    v: &Value,
    all: &[Value],
    field: &Target,
    taken: &[&'p Observed],
    cursor: usize,
) -> Place<'p> {
    match &v.source {
        ValueSource::Literal(_) => {
            let text = v.text().unwrap_or_default();
            put(cx, &text, v.field, &v.label, field, taken, cursor, all)
        }
        ValueSource::Lookup { what, key } => {
            let mut keys: Vec<String> = vec![key.clone()];
            if key.is_empty() {
                // "her phone number": of the person the task names.
                keys.extend(all.iter().filter_map(|o| match &o.source {
                    ValueSource::Literal(t) if t.split(' ').count() >= 2 => Some(t.clone()),
                    _ => None,
                }));
                keys.push(String::new());
            }
            let found = keys
                .iter()
                .find_map(|k| lookup::find(cx.page, what, k, cx.task));
            match found {
                Some(t) => {
                    let t = crate::intent::apply(&t, &v.transforms);
                    let label = if v.label.is_empty() {
                        what.clone()
                    } else {
                        v.label.clone()
                    };
                    put(cx, &t, v.field, &label, field, taken, cursor, all)
                }
                None => Place::Missing(format!(
                    "the {what}{}",
                    if key.is_empty() {
                        String::new()
                    } else {
                        format!(" of {key}")
                    }
                )),
            }
        }
        ValueSource::Pattern { starts, ends } => {
            match suggest::pattern(cx, field, starts.as_deref(), ends.as_deref(), cursor) {
                Outcome::Done(_) => Place::Done(None),
                Outcome::Stuck(w) => Place::Missing(w),
                other => Place::Act(other),
            }
        }
        ValueSource::Phrase(words) => phrase(cx, words, taken, cursor),
        ValueSource::PerLabel => per_label(cx, taken),
    }
}

/// "The value that corresponds with each label": every text field with a
/// label takes what the page writes after that label elsewhere — a line
/// that starts with the label's words and goes on (a key–value table's row
/// "Color  Red", a "Color: Red" list item); the field's own label line
/// ("Color:") has nothing after it and gives nothing.
fn per_label<'p>(cx: &Cx<'p>, taken: &[&'p Observed]) -> Place<'p> {
    let lines = cx.page.lines();
    let mut fields: Vec<&Observed> = cx
        .page
        .elements
        .iter()
        .filter(|e| {
            e.is_text_entry() && !e.is_disabled() && !taken.iter().any(|t| std::ptr::eq(*t, *e))
        })
        .collect();
    fields.sort_by(|a, b| reading_order(a, b));
    let mut filled = Vec::new();
    for f in fields {
        let Some(value) = written_after_label(&lines, &cx.label_words(f), cx.task) else {
            continue;
        };
        if !cx.holds(f, &value) {
            return Place::Act(Outcome::Act(Tool::Type {
                id: cx.id(f),
                text: value,
            }));
        }
        filled.push(f);
    }
    if filled.is_empty() {
        Place::Missing("the value of each label".to_string())
    } else {
        Place::Parts(filled)
    }
}

/// The rest of the first line (not the task's own) whose words start with
/// `label` (normalised) and go on: what the page writes for that label.
fn written_after_label(lines: &[&str], label: &str, task: &str) -> Option<String> {
    let want: Vec<&str> = label.split(' ').filter(|w| !w.is_empty()).collect();
    if want.is_empty() {
        return None;
    }
    lines
        .iter()
        .filter(|l| !task.contains(**l))
        .find_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let starts = words.len() > want.len()
                && words.iter().zip(&want).all(|(w, x)| normalize(w) == *x);
            let rest: Vec<&str> = words[want.len().min(words.len())..]
                .iter()
                .copied()
                .skip_while(|w| normalize(w).is_empty())
                .collect();
            (starts && !rest.is_empty()).then(|| rest.join(" "))
        })
}

/// The thing whose field the target is ("the role of Priya Shah"), when
/// the page does not show it: its row is further down a list or on a later
/// page, so the field is looked for rather than taken from another form
/// that has one of that name.
fn thing_not_shown<'t>(cx: &Cx<'_>, field: &'t Target) -> Option<&'t str> {
    match &field.relation {
        Some((crate::intent::Relation::Of, thing)) if cx.layout.occurrences(thing).is_empty() => {
            Some(thing.as_str())
        }
        _ => None,
    }
}

/// A literal text into the field that suits it (`all`: the task's values, for
/// a field another of them claims).
#[allow(clippy::too_many_arguments)]
fn put<'p>(
    cx: &Cx<'p>,
    text: &str,
    kind: FieldKind,
    label: &str,
    field: &Target,
    taken: &[&'p Observed],
    cursor: usize,
    all: &[Value],
) -> Place<'p> {
    // The field of a thing the page does not show ("the role of Priya
    // Shah" on a list whose rows in view are others'): missing here, looked
    // for by the step (`step`), never another form's field of that name.
    if let Some(thing) = thing_not_shown(cx, field) {
        return Place::Missing(format!("{label} \"{text}\" of {thing}"));
    }
    // A number for a slider: its keys, not typing.
    if let Some(p) = slider::place(cx, text, label, field, taken) {
        return p;
    }
    // A number for a quantity stepper: its "+" or "−", one click at a time.
    if let Some(p) = stepper::place(cx, text, label, field, taken) {
        return p;
    }
    // A date asked as Month / Day / Year boxes: each its part. Asked
    // first: one box showing its part (the Year select's "1990" is an
    // option of "03/07/1990") is no sign that the whole date is in.
    if let Some(p) = date(text).and_then(|ymd| date_parts::place(cx, ymd, taken)) {
        return p;
    }
    // A time asked as Hour / Minute / AM-PM controls: each its part.
    if let Some(p) = time(text).and_then(|hm| time_parts::place(cx, hm, taken)) {
        return p;
    }
    // A setting of one thing's row or card: that row's own field (after a
    // date's parts: "the date of birth" names a field, not a row).
    if let Some(p) = row::place(cx, text, label, field, taken) {
        return p;
    }
    if let Some(e) = entered(cx, text).filter(|e| !taken.iter().any(|t| std::ptr::eq(*t, *e))) {
        return after_typing(cx, e, text, cursor);
    }
    // Typed on an earlier page or view of this task (a two-step sign-in).
    if typed_elsewhere(cx, text, cursor) {
        return Place::Done(None);
    }
    // A custom listbox named by the label (or, with no label naming one,
    // by the value's kind: a time, a count of things): opened, its option
    // clicked.
    if let Some(p) = popup::place(cx, text, label, taken, cursor, false) {
        return p;
    }
    let placed = Placed {
        text: text.to_string(),
        kind,
        label: label.to_string(),
    };
    let e = if field.ordinal.is_some()
        || field.role == Some(Role::TextArea)
        || field.relation.is_some()
    {
        let t = Target {
            text: None,
            ..field.clone()
        };
        best(&resolve(cx, &t, &|e: &Observed| e.is_field()), 0.3)
            .filter(|e| !taken.iter().any(|t| std::ptr::eq(*t, *e)))
            .or_else(|| field_for(cx, &placed, taken))
    } else {
        // No field the value's label names (any free text box fits a
        // plain word a little): a radio group offering the value (its
        // label written short, "SAV" for "savings") before that box.
        let f = field_for(cx, &placed, taken);
        let radio = || {
            (kind == FieldKind::Other)
                .then(|| crate::planner::fields::radio_naming(cx, text, taken))
                .flatten()
        };
        match f {
            Some(e) if !strays(e, label, kind) => Some(e),
            _ => radio().or(f),
        }
        .or_else(|| fallback_field(cx, &placed, taken))
    };
    // An e-mail or a phone number with no field made for it on this step
    // of a form that has a next one: for a later step.
    let e = e.filter(|e| !super::wizard::for_later_step(cx, kind, e, cursor));
    let e = e.or_else(|| option_named(cx, text, taken));
    // A time with no field: the page's button that says that time (a
    // booking's row of time slots, "7:00 PM" "7:30 PM" …) is chosen.
    if e.is_none() {
        if let Some(p) = time_slot(cx, text, cursor) {
            return p;
        }
    }
    // No field for a value that is no address, number or secret: the
    // page's one custom listbox may offer it ("Invite X as "Billing
    // manager"", the listbox labelled "Workspace role").
    if e.is_none() && kind == FieldKind::Other {
        if let Some(p) = popup::place(cx, text, label, taken, cursor, true) {
            return p;
        }
    }
    let Some(e) = e else {
        return Place::Missing(if label.is_empty() {
            format!("\"{text}\"")
        } else {
            format!("{label} \"{text}\"")
        });
    };
    // The field the task names is not on this view, and the one found
    // instead shares no word with it nor its kind ("Recovery email" when
    // the Profile tab shows only Full name and Company): open the tab or
    // section that may hold it first, rather than type over another field.
    // (A value in the form of the field's own example, "e.g. 1234-5678",
    // is the field's whatever the task called it.)
    if strays(e, label, kind) && !crate::planner::values::fits_example(e, text) {
        // A form of steps ("Step 1 of 2", "Continue"): the field is on a
        // later step (an app's router shows step 2 in place of step 1),
        // not behind a help link that shares its words ("How to read your
        // meter" for the meter reading); the values this step takes go
        // in first, then its forward control (`step`).
        // Only when the field is another value's of the task (in the form
        // of its example, "e.g. 1234-5678"): a field no other value claims
        // takes this one as before (the e-mail of "Log in as …" on a
        // sign-in's first step).
        let claimed = all
            .iter()
            .filter_map(|o| o.text())
            .any(|o| o != text && crate::planner::values::fits_example(e, &o));
        if claimed && super::wizard::forward_control(cx, cursor).is_some() {
            return Place::Missing(format!("{label} \"{text}\""));
        }
        // A control that names the field ("Have a promo code?", "+ Add a
        // gift message") shows it.
        // Never the control that sends the form ("Create reminder" for a
        // "reminder" whose field says "Remind me to").
        let sends = submit_control(cx, &[e], "");
        if let Some(o) =
            super::reveal::naming(cx, label).filter(|o| !sends.is_some_and(|s| std::ptr::eq(s, *o)))
        {
            return Place::Act(click(cx, o));
        }
        let openers = cx.page.elements.iter().any(|o| {
            super::reveal::opener(o) && !cx.avoided(o) && cx.clicked_since(0, o).is_none()
        });
        if openers {
            let named = Target {
                text: Some(label.to_string()),
                ..Target::default()
            };
            return Place::Act(reveal(cx, &named, cursor));
        }
    }
    // A value that names a radio button or a check box ("Large" pizza):
    // chosen, not typed.
    if e.is_checkable() {
        if super::choose::is_checked(e) || cx.clicked_since(cursor, e).is_some() {
            return Place::Done(Some(e));
        }
        return Place::Act(click(cx, e));
    }
    let want = for_field(e, text);
    if cx.holds(e, &want) {
        return after_typing(cx, e, &want, cursor);
    }
    // A date field one cannot type into: its calendar.
    let datelike =
        field_shape(e) == Some(Shape::Date) || e.facts.read_only || field_shape(e).is_none();
    if datelike && date(text).is_some() && cannot_type(cx, e, &want) {
        return match calendar::choose(cx, e, text, cursor) {
            Outcome::Done(_) => Place::Done(Some(e)),
            other => Place::Act(other),
        };
    }
    if off_screen(cx, e) {
        if let Some(t) = super::into_view(cx, e) {
            return Place::Act(Outcome::Act(t));
        }
    }
    Place::Act(Outcome::Act(Tool::Type {
        id: cx.id(e),
        text: want,
    }))
}

/// Typed (successfully) since `cursor` into an element that is not on this
/// page any more.
/// A date counts in the form the field took it ("2026-12-12" typed for
/// "12/12/2026"), and a time chosen as a slot button (`time_slot`) counts
/// as the time given.
fn typed_elsewhere(cx: &Cx<'_>, text: &str, cursor: usize) -> bool {
    let same = |t: &str| {
        t == text
            || normalize(t) == normalize(text)
            || date(t).is_some_and(|d| date(text) == Some(d))
    };
    let slot = time(text);
    cx.history.iter().skip(cursor).any(|h| {
        let typed = h.action == "type" && h.param_str("text").is_some_and(same) && ok(h);
        (typed || slot.is_some_and(|t| clicked_time(h, t)))
            && h.element_id().is_none_or(|id| {
                cx.page.find(&id).is_none() || h.url.as_deref() != Some(cx.page.url.as_str())
            })
    })
}

/// Typing was refused or did not stick: read-only, or the value is not there.
fn cannot_type(cx: &Cx<'_>, e: &Observed, want: &str) -> bool {
    e.facts.read_only
        || cx.history.iter().any(|h| {
            h.action == "type"
                && cx.on(h, e)
                && (!ok(h)
                    || (h.param_str("text") == Some(want)
                        && !e.value().is_empty()
                        && e.value() != want
                        && date(e.value()) != date(want)))
        })
}

/// A value in its field: done, unless an autocomplete offers suggestions
/// to choose from now.
fn after_typing<'p>(cx: &Cx<'p>, e: &'p Observed, text: &str, cursor: usize) -> Place<'p> {
    match suggest::choose(cx, e, text, cursor) {
        Some(o) => Place::Act(o),
        None => Place::Done(Some(e)),
    }
}

/// The first free field when the task names no kind: a password only into
/// a password field and nothing else into one; a search box only takes a
/// search term or an unlabelled value ("Log in as "alice"" on a front
/// page with a search box is not a search).
fn fallback_field<'p>(cx: &Cx<'p>, v: &Placed, taken: &[&'p Observed]) -> Option<&'p Observed> {
    cx.page
        .elements
        .iter()
        .filter(|e| {
            e.is_text_entry()
                && !e.is_disabled()
                && !taken.iter().any(|t| std::ptr::eq(*t, *e))
                && e.value().is_empty()
                && !cx.avoided(e)
        })
        .filter(|e| {
            if (v.kind == FieldKind::Password) != crate::planner::fields::is_password(e) {
                return false;
            }
            let search = crate::planner::fields::kind_of(e) == Some(FieldKind::Search);
            !search || matches!(v.kind, FieldKind::Search | FieldKind::Other) && v.label.is_empty()
        })
        // A search box only when no other field is free (see `fields::fit`).
        .min_by(|a, b| {
            let search =
                |e: &Observed| crate::planner::fields::kind_of(e) == Some(FieldKind::Search);
            search(a).cmp(&search(b)).then_with(|| reading_order(a, b))
        })
}

/// A phrase: a field named by its first words, a list option it names, or
/// an option to tick ("express delivery").
fn phrase<'p>(cx: &Cx<'p>, words: &str, taken: &[&'p Observed], cursor: usize) -> Place<'p> {
    // Its value typed already (the form may have moved on since).
    let whole = normalize(words);
    let typed = cx.history.iter().skip(cursor).any(|h| {
        h.action == "type"
            && ok(h)
            && h.param_str("text").is_some_and(|t| {
                let t = normalize(t);
                !t.is_empty() && (whole.ends_with(&format!(" {t}")) || whole == t)
            })
            && h.element_id().is_none_or(|id| {
                cx.page.find(&id).is_none() || h.url.as_deref() != Some(cx.page.url.as_str())
            })
    });
    if typed {
        return Place::Done(None);
    }
    if let Some((e, value)) = split_phrase(cx, words, taken) {
        let label = words
            .strip_suffix(&value)
            .unwrap_or(words)
            .trim()
            .to_string();
        let _ = label;
        let want = for_field(e, &value);
        if cx.holds(e, &want) || super::super::values::shows(e, &value) {
            return Place::Done(Some(e));
        }
        return Place::Act(Outcome::Act(Tool::Type {
            id: cx.id(e),
            text: want,
        }));
    }
    if let Some((e, option)) = select_naming(cx, words, taken) {
        if super::super::values::shows(e, &option) || cx.holds(e, &option) {
            return Place::Done(Some(e));
        }
        return Place::Act(Outcome::Act(Tool::Type {
            id: cx.id(e),
            text: option,
        }));
    }
    // A select rebuilt as a custom listbox (a button with
    // `aria-haspopup=listbox`, a select-only combobox) is no field, so the
    // split above never tries it: "team size 2-10" is its label then its
    // value, "the Billing category" its value then its label. The longest
    // label first; the listbox is opened and its option clicked.
    let ws: Vec<&str> = words.split_whitespace().collect();
    for n in (1..ws.len()).rev() {
        let splits = [
            (ws[..n].join(" "), ws[n..].join(" ")),
            (ws[ws.len() - n..].join(" "), ws[..ws.len() - n].join(" ")),
        ];
        for (label, value) in splits {
            if let Some(p) = popup::place(cx, &value, &label, taken, cursor, false) {
                return p;
            }
        }
    }
    // An option to tick or pick whose words the phrase has.
    let tick = cx
        .page
        .elements
        .iter()
        .filter(|e| e.is_checkable() && !e.is_disabled() && !cx.is_instruction(e))
        .map(|e| (text_fit(e, words).max(first_word_fit(e, words)), e))
        .filter(|(s, _)| *s >= 0.45)
        .max_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((_, e)) = tick {
        if super::choose::is_checked(e) || cx.clicked_since(cursor, e).is_some() {
            return Place::Done(Some(e));
        }
        return Place::Act(click(cx, e));
    }
    // A radio group's option the phrase names as a select's would be
    // ("it's high priority" → "P2 – High").
    if let Some(e) = crate::planner::fields::radio_naming(cx, words, taken) {
        if super::choose::is_checked(e) || cx.clicked_since(cursor, e).is_some() {
            return Place::Done(Some(e));
        }
        return Place::Act(click(cx, e));
    }
    Place::Missing(format!("\"{words}\""))
}

/// "express delivery" against "Express (2 days) — $9.00": the phrase's
/// first word is the option's.
fn first_word_fit(e: &Observed, words: &str) -> f64 {
    let first = normalize(words);
    let first = first.split(' ').next().unwrap_or_default();
    let label = normalize(e.label());
    if first.len() >= 3 && label.split(' ').next() == Some(first) {
        0.6
    } else {
        0.0
    }
}

/// With no field for a value, the radio button or check box it names:
/// its label is the value, or starts with it as whole words ("Large" →
/// "Large 14\"").
fn option_named<'p>(cx: &Cx<'p>, text: &str, taken: &[&'p Observed]) -> Option<&'p Observed> {
    let want = normalize(text);
    if want.is_empty() {
        return None;
    }
    let mut hits = cx.page.elements.iter().filter(|e| {
        e.is_checkable()
            && !e.is_disabled()
            && !cx.avoided(e)
            && !taken.iter().any(|t| std::ptr::eq(*t, *e))
            && {
                let l = normalize(e.label());
                l == want || l.starts_with(&format!("{want} "))
            }
    });
    if let Some(first) = hits.next() {
        // Two options of that name: which one is meant is not clear.
        return hits.next().is_none().then_some(first);
    }
    // A radio button whose words hold the value's as whole words, among
    // the others it describes ("recycling" → "Mixed recycling (blue
    // lid)", "diesel" → "Hybrid or diesel"): a group of choices names each
    // by more than the word people say. The one radio that does; a check
    // box is left alone (an opt-in says many words).
    let padded = format!(" {want} ");
    let mut within = cx.page.elements.iter().filter(|e| {
        (e.role() == sentience_snapshot_core::Role::Radio || e.facts.input_type == "radio")
            && !e.is_disabled()
            && !cx.avoided(e)
            && !taken.iter().any(|t| std::ptr::eq(*t, *e))
            && format!(" {} ", normalize(e.label())).contains(&padded)
    });
    let first = within.next()?;
    within.next().is_none().then_some(first)
}

/// `h` is a successful click on a control that says the time `t` (a
/// slot button, whose id may be new once the slots are redrawn).
fn clicked_time(h: &HistoryEntry, t: (u32, u32)) -> bool {
    h.action == "click" && ok(h) && h.element_text.as_deref().and_then(time) == Some(t)
}

/// A time of day with no field for it, and exactly one enabled button
/// whose words are that same time ("7:30 PM" for "at 7:30 pm", "19:30"):
/// a time slot, clicked once. Clicked already when a click since `cursor`
/// was on a control saying that time (slot rows are often redrawn on a
/// click, so the element's id may be new).
fn time_slot<'p>(cx: &Cx<'p>, text: &str, cursor: usize) -> Option<Place<'p>> {
    let want = time(text)?;
    let mut slots = cx.page.elements.iter().filter(|e| {
        e.role() == sentience_snapshot_core::Role::Button
            && !e.is_disabled()
            && !cx.avoided(e)
            && time(e.label()) == Some(want)
    });
    let b = slots.next()?;
    if slots.next().is_some() {
        return None;
    }
    let clicked = cx.clicked_since(cursor, b).is_some()
        || cx
            .history
            .iter()
            .skip(cursor)
            .any(|h| clicked_time(h, want));
    Some(if clicked {
        Place::Done(Some(b))
    } else {
        Place::Act(click(cx, b))
    })
}

/// A text field chosen for a value whose label names something else: no
/// content word of the label in the field's words, and not of the kind the
/// value is by the field's type (an e-mail box for an e-mail).
fn strays(e: &Observed, label: &str, kind: FieldKind) -> bool {
    if label.is_empty() || !e.is_text_entry() {
        return false;
    }
    let want = crate::text::concepts(label);
    if want.is_empty() {
        return false;
    }
    let have = crate::text::concepts(&e.descriptors());
    let typed = match kind {
        FieldKind::Email => e.facts.input_type == "email",
        FieldKind::Phone => e.facts.input_type == "tel",
        FieldKind::Password => e.facts.input_type == "password",
        FieldKind::Search => e.facts.input_type == "search",
        _ => false,
    };
    !typed && !want.iter().any(|w| have.contains(w))
}

/// Values were typed since `cursor`, every field typed into is gone, and a
/// click after the last of them changed the page: that click's index (the
/// next step starts with it, so a submit step sees what sent the form).
fn moved_on(cx: &Cx<'_>, cursor: usize) -> Option<usize> {
    let typed: Vec<(usize, String)> = cx
        .history
        .iter()
        .enumerate()
        .skip(cursor)
        .filter(|(_, h)| h.action == "type")
        .filter_map(|(i, h)| Some((i, h.element_id()?)))
        .collect();
    let last = typed.last()?.0;
    if !typed.iter().all(|(_, id)| cx.page.find(id).is_none()) {
        return None;
    }
    cx.history
        .iter()
        .enumerate()
        .skip(last + 1)
        .find(|(_, h)| h.action == "click" && h.success != Some(false) && !h.no_page_change())
        .map(|(i, _)| i)
}
