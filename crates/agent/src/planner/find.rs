//! Resolving a parsed target ("the 2nd button", link "ut.", a "textarea"
//! widget, the field below "Email") to elements of the page. Text and role
//! matches decide which elements qualify; the System 2 scores of docs/contracts/system2.md §7
//! (discoverability, understandability, relevance) order the qualifying ones.

use super::fields::candidate;
use crate::intent::{Ordinal, Relation, Role, Target};
use crate::page::{Page, PageElement};
use crate::system2::score::{combine, discoverability, relevance, understandability, UserContext};
use crate::task::TaskPlan;
use crate::text::{concepts, normalize};

/// How well an element plays a role: 1 exact, 0.5 plausible, 0 not at all.
pub fn role_fit(e: &PageElement, role: Role) -> f64 {
    let r = e.role.as_str();
    let clickable_generic = !e.is_text_entry() && !matches!(r, "checkbox" | "radio" | "combobox");
    match role {
        Role::Button => match r {
            "button" => 1.0,
            _ if e.tag == "button"
                || (e.tag == "input"
                    && matches!(
                        e.input_type.as_str(),
                        "submit" | "button" | "reset" | "image"
                    )) =>
            {
                1.0
            }
            "link" | "menuitem" | "tab" | "generic" => 0.5,
            _ => 0.0,
        },
        Role::Link => match r {
            "link" => 1.0,
            _ if e.tag == "a" => 1.0,
            _ if clickable_generic => 0.6,
            _ => 0.0,
        },
        Role::Tab => match r {
            "tab" => 1.0,
            _ if e.state.selected.is_some() && clickable_generic => 0.8,
            _ if clickable_generic => 0.4,
            _ => 0.0,
        },
        Role::Checkbox => f64::from(u8::from(r == "checkbox" || e.input_type == "checkbox")),
        Role::Radio => f64::from(u8::from(r == "radio" || e.input_type == "radio")),
        Role::Field => {
            if e.is_text_entry() && r != "combobox" {
                1.0
            } else if e.is_text_entry() {
                0.5
            } else {
                0.0
            }
        }
        Role::TextArea => match () {
            _ if e.tag == "textarea" => 1.0,
            _ if e.is_text_entry() => 0.3,
            _ => 0.0,
        },
        Role::Dropdown => match r {
            "combobox" | "listbox" => 1.0,
            _ if e.tag == "select" => 1.0,
            _ if e.state.expanded.is_some() => 0.6,
            _ => 0.0,
        },
        Role::Option => match r {
            "option" | "radio" | "checkbox" | "menuitemradio" | "menuitemcheckbox" => 1.0,
            _ if clickable_generic => 0.5,
            _ => 0.0,
        },
        Role::Item | Role::Result => match r {
            "menuitem" | "treeitem" | "option" | "listitem" | "link" => 1.0,
            _ if clickable_generic => 0.7,
            _ => 0.0,
        },
        Role::Section => match () {
            _ if e.state.expanded.is_some() && clickable_generic => 1.0,
            _ if matches!(r, "button" | "heading" | "generic") || e.tag == "summary" => 0.5,
            _ => 0.0,
        },
        Role::Menu => match () {
            _ if r.contains("menu") || candidate(e).is_menu() => 1.0,
            _ if clickable_generic => 0.5,
            _ => 0.0,
        },
        Role::Dialog | Role::List | Role::Table => {
            if clickable_generic || e.is_text_entry() {
                0.5
            } else {
                0.3
            }
        }
        Role::Widget => 1.0,
    }
}

/// Does the element's kind answer to a word ("textarea", "checkbox", "button")?
fn kind_named(e: &PageElement, word: &str) -> bool {
    let w = normalize(word);
    let w = w.trim_end_matches('s');
    match w {
        "textarea" | "text area" => e.tag == "textarea",
        "checkbox" | "check box" => e.role == "checkbox",
        "radio" | "radio button" => e.role == "radio",
        "button" => e.role == "button" || e.tag == "button",
        "link" => e.role == "link",
        "text" | "input" | "textbox" | "text box" | "text input" | "text field" => {
            e.is_text_entry() && e.tag != "textarea" && e.role != "combobox"
        }
        "dropdown" | "select" | "combobox" => e.role == "combobox" || e.tag == "select",
        _ => e.tag == w || e.role == w || e.input_type == w,
    }
}

const CLOSE_MARKS: &[&str] = &["x", "×", "✕", "✖", "╳"];

/// How well the element's text answers to the target text (0 = not at all).
pub fn text_fit(e: &PageElement, text: &str) -> f64 {
    let want = normalize(text);
    let labels = [
        e.label(),
        e.aria_label.as_str(),
        e.text.as_str(),
        e.value.as_str(),
    ];
    if want.is_empty() {
        // Symbols only ("♥♥♥", "→"): compare as written.
        let t = text.trim();
        return if !t.is_empty() && labels.iter().any(|l| l.trim() == t) {
            1.0
        } else if !t.is_empty() && labels.iter().any(|l| l.contains(t)) {
            0.6
        } else if CLOSE_MARKS.contains(&t) {
            close_fit(e)
        } else {
            0.0
        };
    }
    let mut best: f64 = 0.0;
    for l in labels {
        let have = normalize(l);
        if have.is_empty() || want.is_empty() {
            continue;
        }
        let s = if have == want {
            1.0
        } else if format!(" {have} ").contains(&format!(" {want} ")) {
            // "Submit" in "Submit form": the words are there, among others.
            0.85 * (want.len() as f64 / have.len() as f64).max(0.6)
        } else if want.len() >= 3 && format!(" {want} ").contains(&format!(" {have} ")) {
            0.5
        } else {
            let cw = concepts(&want);
            let ch = concepts(&have);
            if !cw.is_empty() && cw == ch {
                0.9
            } else {
                0.0
            }
        };
        best = best.max(s);
    }
    if best == 0.0 && CLOSE_MARKS.contains(&text.trim()) {
        best = close_fit(e);
    }
    best
}

/// An "x" names the close control: labelled "Close" (or an x mark) best,
/// other dismissing words ("Cancel") much less.
fn close_fit(e: &PageElement) -> f64 {
    let labels = [e.label(), e.aria_label.as_str()];
    if labels
        .iter()
        .any(|l| normalize(l) == "close" || CLOSE_MARKS.contains(&l.trim()))
    {
        0.95
    } else if labels
        .iter()
        .any(|l| concepts(l).iter().any(|w| w == "close"))
    {
        0.4
    } else {
        0.0
    }
}

/// Reading order: top to bottom, then left to right (rows within 6 px).
pub fn reading_order(a: &PageElement, b: &PageElement) -> std::cmp::Ordering {
    let (ay, ax) = a.bbox.map(|b| (b.y, b.x)).unwrap_or((f64::MAX, 0.0));
    let (by, bx) = b.bbox.map(|b| (b.y, b.x)).unwrap_or((f64::MAX, 0.0));
    if (ay - by).abs() > 6.0 {
        ay.total_cmp(&by)
    } else {
        ax.total_cmp(&bx)
    }
}

/// An element or text the relation is measured from.
fn anchor<'p>(page: &'p Page, what: &str) -> Option<&'p PageElement> {
    page.elements
        .iter()
        .map(|e| (text_fit(e, what), e))
        .filter(|(s, _)| *s >= 0.5)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, e)| e)
}

fn relation_ok(e: &PageElement, rel: Relation, a: &PageElement) -> Option<f64> {
    let (eb, ab) = (e.bbox?, a.bbox?);
    let (ex, ey) = eb.center();
    let (ax, ay) = ab.center();
    let d = ((ex - ax).powi(2) + (ey - ay).powi(2)).sqrt();
    let ok = match rel {
        Relation::Below => ey > ab.y + ab.height - 2.0,
        Relation::Above => ey < ab.y + 2.0,
        Relation::LeftOf => ex < ab.x + 2.0,
        Relation::RightOf => ex > ab.x + ab.width - 2.0,
        Relation::Near => d < 200.0,
        Relation::Inside => true,
    };
    ok.then_some(d)
}

/// Text that is the instruction itself (some pages show the task): never a target.
pub fn is_instruction(e: &PageElement, task: &str) -> bool {
    let l = normalize(e.label());
    let t = normalize(task);
    l.len() > 12 && (l.contains(&t) || t.contains(&l) && l.split(' ').count() >= 4)
}

/// Elements answering to the target, best first. `extra` filters further
/// (e.g. only checkable elements). Each with its match score.
pub fn resolve<'p>(
    page: &'p Page,
    target: &Target,
    task: &str,
    avoid: &[String],
    extra: &dyn Fn(&PageElement) -> bool,
) -> Vec<(f64, &'p PageElement)> {
    let plan = TaskPlan::parse(task);
    let task_c = concepts(task);
    let fold = page.viewport_height.unwrap_or(800.0);
    let widget_kind = target.role == Some(Role::Widget);
    let anchor_el = target
        .relation
        .as_ref()
        .filter(|(r, _)| *r != Relation::Inside)
        .and_then(|(_, w)| anchor(page, w));
    let mut out: Vec<(f64, &PageElement)> = Vec::new();
    for e in &page.elements {
        if e.disabled || avoid.iter().any(|a| e.id.is(a)) || !extra(e) || is_instruction(e, task) {
            continue;
        }
        let mut s = 1.0;
        if let Some(r) = target.role {
            s *= role_fit(e, r);
        }
        if let Some(t) = &target.text {
            if widget_kind {
                s *= if kind_named(e, t) { 1.0 } else { 0.0 };
            } else {
                s *= text_fit(e, t);
            }
        }
        if s <= 0.0 {
            continue;
        }
        if let Some(a) = anchor_el {
            if std::ptr::eq(a, e) {
                continue;
            }
            let Some((rel, _)) = &target.relation else {
                continue;
            };
            match relation_ok(e, *rel, a) {
                Some(d) => s *= 1.0 / (1.0 + d / 400.0),
                None => continue,
            }
        }
        // System 2 (docs/contracts/system2.md §7): discoverability, understandability and
        // relevance order the elements that match equally well.
        let c = candidate(e);
        let d = discoverability(&c, None, fold).value;
        let u = understandability(&c, &UserContext::default()).value;
        let r = relevance(&c, &task_c, &plan, &[]).value;
        s += 0.05 * combine(d, u, r);
        out.push((s, e));
    }
    if let Some(o) = target.ordinal {
        // Position among the qualifying elements, in reading order.
        let best = out.iter().map(|(s, _)| *s).fold(0.0, f64::max);
        let mut pool: Vec<(f64, &PageElement)> =
            out.into_iter().filter(|(s, _)| *s >= best * 0.6).collect();
        pool.sort_by(|a, b| reading_order(a.1, b.1));
        let pick = match o {
            Ordinal::Nth(n) => pool.get(n.saturating_sub(1)).copied(),
            Ordinal::Last => pool.last().copied(),
        };
        return pick.into_iter().collect();
    }
    out.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| reading_order(a.1, b.1)));
    out
}
