//! A listing that stops when what is left is not worth its tokens
//! ([`format_enough`]), for callers that can ask again (the MCP server's
//! `browser_snapshot`, docs/mcp.md "How much a snapshot lists").
//!
//! [`format_elements`](crate::format_elements) fills its budget in rank order: on a long page the
//! budget is the size of the answer. Here the budget stays the hard cap,
//! but the page decides the size:
//!
//! 1. a page whose whole listing fits in the budget is listed whole (the
//!    agent then never has to ask again);
//! 2. otherwise it lists what the agent can act on now or after one
//!    scroll, and beyond that only what a task is most likely to need
//!    (docs/contracts/snapshot.md §6.4 ranks inputs 1000, buttons 500,
//!    links 100, and +200 for a primary action): every element in the
//!    viewport or within one viewport's height of it ([`near_viewport`]),
//!    and anywhere on the page the form fields (textbox, searchbox,
//!    combobox, checkbox, radio) with the buttons on their row (a field
//!    is of no use without its submit button), and primary actions (§6.6
//!    `is_primary`).
//!    What is left is the long tail of a page (links and cards of footers,
//!    "more stories", sidebars), reached by scrolling or asking;
//! 3. one closing line counts what was left out by role, and says how to
//!    get it (the caller's `more_hint`).
//!
//! Within that, lines come in [`listing_order`] and the budget cuts as in
//! `format_elements`: the listed elements are a prefix of the chosen ones.

use crate::format::{element_line, Formatted};
use crate::model::{listing_order, BBox, Listed, Role};
use crate::tokens::estimate_tokens;

/// How [`format_enough`] lists: its hard cap and the closing line's advice.
#[derive(Debug, Clone, Copy)]
pub struct Enough<'a> {
    pub max_tokens: usize,
    /// The viewport's height in CSS pixels (the snapshot's `viewport`).
    pub viewport_height: f64,
    /// Appended to the closing line when something was left out: how the
    /// caller's agent gets the rest (the MCP server: "browser_find {query}
    /// or browser_scroll").
    pub more_hint: &'a str,
}

/// Which of `elements` are listed on a page that does not fit whole
/// (rule 2 of the module docs), by index.
pub fn worth_listing<E: Listed>(elements: &[E], viewport_height: f64) -> Vec<bool> {
    let mut chosen: Vec<bool> = elements
        .iter()
        .map(|e| {
            let el = e.element();
            el.in_viewport
                || near_viewport(e, viewport_height)
                || el.visual_cues.is_primary
                || is_field(el.role)
        })
        .collect();
    // A field is of no use without the button that submits it: the buttons
    // on a field's row (their boxes overlap vertically) come with it.
    let fields: Vec<&BBox> = elements
        .iter()
        .map(Listed::element)
        .filter(|e| is_field(e.role))
        .map(|e| &e.bbox)
        .collect();
    for (i, e) in elements.iter().enumerate() {
        let el = e.element();
        if !chosen[i] && el.role == Role::Button {
            chosen[i] = fields.iter().any(|f| same_row(f, &el.bbox));
        }
    }
    chosen
}

fn is_field(role: Role) -> bool {
    matches!(
        role,
        Role::Textbox | Role::Searchbox | Role::Combobox | Role::Checkbox | Role::Radio
    )
}

/// Whether two boxes share a row: their vertical extents overlap.
fn same_row(a: &BBox, b: &BBox) -> bool {
    a.y < b.y + b.height.max(0.0) && b.y < a.y + a.height.max(0.0)
}

/// Whether `e`'s box reaches within one viewport's height above or below
/// the viewport (the box is in viewport coordinates, docs/contracts/snapshot.md
/// §6.5): one scroll shows it. A viewport of no height (unknown) counts
/// nothing as near.
pub fn near_viewport<E: Listed + ?Sized>(e: &E, viewport_height: f64) -> bool {
    let b = &e.element().bbox;
    let h = if viewport_height.is_finite() {
        viewport_height.max(0.0)
    } else {
        0.0
    };
    h > 0.0 && b.y < 2.0 * h && b.y + b.height.max(0.0) > -h
}

/// The listing under the rule above (module docs). `Formatted::shown` and
/// `total` count elements as in `format_elements`.
pub fn format_enough<E: Listed>(elements: &[E], opts: &Enough<'_>) -> Formatted {
    let order = listing_order(elements);
    let total = order.len();
    let lines: Vec<String> = order.iter().map(|&i| element_line(&elements[i])).collect();
    let whole: usize = lines.iter().map(|l| estimate_tokens(l)).sum();
    if whole <= opts.max_tokens {
        // Rule 1: everything, and no closing line to reserve room for.
        return Formatted {
            text: lines.concat(),
            shown: total,
            total,
            tokens: whole,
        };
    }
    let chosen = worth_listing(elements, opts.viewport_height);
    let mut left = LeftOut::of(order.iter().map(|&i| &elements[i]));
    left.whole = whole;
    let mut text = String::new();
    let mut used = 0;
    let mut shown = 0;
    for (k, &i) in order.iter().enumerate() {
        let e = &elements[i];
        if !chosen[i] {
            continue;
        }
        let cost = estimate_tokens(&lines[k]);
        let mut after = left.clone();
        after.remove(e);
        let trailer_cost = estimate_tokens(&after.line(opts.more_hint));
        if used + cost + trailer_cost > opts.max_tokens {
            // The budget cuts here: what follows in the order is left out.
            break;
        }
        text.push_str(&lines[k]);
        used += cost;
        shown += 1;
        left = after;
    }
    let tail = left.line(opts.more_hint);
    let tail_cost = estimate_tokens(&tail);
    if used + tail_cost <= opts.max_tokens {
        text.push_str(&tail);
        used += tail_cost;
    }
    Formatted {
        text,
        shown,
        total,
        tokens: used,
    }
}

/// What is not (yet) listed: how many, by role, and how many off-screen.
#[derive(Debug, Clone, Default)]
struct LeftOut {
    by_role: [usize; Role::ALL.len()],
    /// Roles not in the contract (an `Entry`'s own, e.g. `menuitem`).
    other: usize,
    offscreen: usize,
    /// The whole page's listing's tokens: the budget that lists it all.
    whole: usize,
}

impl LeftOut {
    fn of<'e, E: Listed + 'e>(elements: impl Iterator<Item = &'e E>) -> Self {
        let mut left = LeftOut::default();
        for e in elements {
            left.add(e, 1);
        }
        left
    }

    fn remove<E: Listed>(&mut self, e: &E) {
        self.add(e, usize::MAX);
    }

    /// Adds (`step` 1) or removes (`step` usize::MAX, wrapping) one element.
    fn add<E: Listed>(&mut self, e: &E, step: usize) {
        let slot = match Role::parse(e.role_text()) {
            Some(r) => &mut self.by_role[Role::ALL.iter().position(|x| *x == r).unwrap_or(0)],
            None => &mut self.other,
        };
        *slot = slot.wrapping_add(step);
        if !e.element().in_viewport {
            self.offscreen = self.offscreen.wrapping_add(step);
        }
    }

    fn count(&self) -> usize {
        self.by_role.iter().sum::<usize>() + self.other
    }

    /// `… 140 more (120 links, 18 buttons, 2 other; 139 below the fold;
    /// all: max_tokens 3100): HINT`,
    /// or nothing when nothing is left.
    fn line(&self, hint: &str) -> String {
        let n = self.count();
        if n == 0 {
            return String::new();
        }
        let mut kinds: Vec<String> = Vec::new();
        for (r, &c) in Role::ALL.iter().zip(&self.by_role) {
            if c > 0 {
                kinds.push(format!("{c} {}", plural(r.as_str(), c)));
            }
        }
        if self.other > 0 {
            kinds.push(format!("{} other", self.other));
        }
        let mut line = format!("… {n} more ({}", kinds.join(", "));
        if self.offscreen > 0 {
            line.push_str(&format!("; {} below the fold", self.offscreen));
        }
        line.push_str(&format!("; all: max_tokens {})", self.whole));
        if !hint.is_empty() {
            line.push_str(": ");
            line.push_str(hint);
        }
        line.push('\n');
        line
    }
}

fn plural(role: &str, n: usize) -> String {
    match (role, n) {
        (r, 1) => r.to_string(),
        ("checkbox", _) => "checkboxes".into(),
        ("searchbox", _) => "searchboxes".into(),
        ("textbox", _) => "textboxes".into(),
        ("combobox", _) => "comboboxes".into(),
        (r, _) => format!("{r}s"),
    }
}
