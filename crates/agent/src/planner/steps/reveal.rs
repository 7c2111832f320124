//! The target is not on the page: open what may hide it (collapsed
//! sections, unselected tabs, menus), scroll to look for it, give a page
//! that is still changing a moment, go back from a page a click led to by
//! mistake; and when nothing is left, say so (the caller asks the user,
//! with what was tried).

use super::{click, settling, Outcome};
use crate::intent::Target;
use crate::planner::context::Cx;
use crate::planner::find::{candidate, role_fit};
use crate::planner::layout::reading_order;
use crate::types::{Direction, Tool};
use sentience_snapshot_core::Observed;

/// Scrolls the planner makes looking for a named target.
const MAX_LOOK_SCROLLS: usize = 10;
/// Looks (a second apart) at a page that says it is still loading.
const MAX_LOADING_LOOKS: usize = 6;

/// Something that hides other things until it is opened.
pub fn opener(e: &Observed) -> bool {
    // An option of an open listbox says whether it is selected as a tab
    // does, but choosing it opens nothing: it sets the listbox's value.
    !e.is_disabled()
        && !e.is_text_entry()
        && e.facts.aria_role != "option"
        && (e.element.state.expanded == Some(false)
            || (e.element.state.selected == Some(false)
                && (e.facts.aria_role == "tab" || role_fit(e, crate::intent::Role::Tab) > 0.5))
            || (e.facts.tag == "summary" && e.element.state.expanded != Some(true))
            || (e.facts.has_popup && e.element.state.expanded != Some(true))
            || (e.role() == crate::page::Role::Button && candidate(e).is_menu()))
}

pub fn reveal(cx: &Cx<'_>, target: &Target, cursor: usize) -> Outcome {
    let mut hidden: Vec<&Observed> = cx
        .page
        .elements
        .iter()
        .filter(|e| opener(e) && !cx.avoided(e) && !cx.is_instruction(e))
        .filter(|e| cx.clicked_since(0, e).is_none())
        .collect();
    hidden.sort_by(|a, b| reading_order(a, b));
    // A row's own menu ("⋯" in each row of a table) is opened only for the
    // item its row holds: another row's menu would act on another item.
    let wanted = target
        .relation
        .as_ref()
        .map(|(_, a)| a.as_str())
        .or(target.text.as_deref())
        .unwrap_or_default();
    hidden = rows_for(hidden, wanted);
    // "Suspend Priya Nair" on a list whose rows each have a "⋯" menu: the
    // menu of that row, not the first row's.
    if let Some((_, anchor)) = &target.relation {
        if let Some(e) = row_opener(cx, &hidden, anchor) {
            return click(cx, e);
        }
    }
    if let Some(r) = target.role {
        // Prefer the opener of the kind named ("the menu", "the tab").
        if let Some(e) = hidden.iter().find(|e| role_fit(e, r) >= 1.0) {
            return click(cx, e);
        }
    }
    // Openers whose words share something with the target first.
    if let Some(t) = &target.text {
        let want = crate::text::concepts(t);
        if let Some(e) = hidden.iter().find(|e| {
            crate::text::concepts(e.label())
                .iter()
                .any(|c| want.contains(c))
        }) {
            return click(cx, e);
        }
    }
    // Then openers whose words the task says elsewhere: a help centre's
    // topic tab "Returns & refunds", then its question "How do refunds
    // work?", for "find the refund question and request one" (the target,
    // "request", is the action inside the answer).
    let task = crate::text::concepts(cx.task);
    if let Some(e) = hidden.iter().find(|e| {
        crate::text::concepts(e.label())
            .iter()
            .any(|c| c.len() > 2 && task.contains(c))
    }) {
        return click(cx, e);
    }
    if let Some(e) = hidden.first() {
        return click(cx, e);
    }
    // "Download invoice INV-2043" when the page lists other invoices: the
    // row is on another page of the list; the same control of another row
    // ("Download PDF" of INV-2048) is no way to it.
    let anchor_missing = target
        .relation
        .as_ref()
        .is_some_and(|(_, a)| cx.layout.occurrences(a).is_empty());
    if anchor_missing {
        if let Some(e) = pager(cx, cursor) {
            return click(cx, e);
        }
    }
    // A control whose words name what is missing ("Add a coupon code" for
    // the coupon code field, "Log in" for the log-in form), once. Not for a
    // thing's own action ("Remove" of the comet-tail board): a control
    // named with that action here is another thing's ("Remove sun-deck"),
    // and clicking it would act on the wrong row.
    let of_thing = matches!(target.relation, Some((crate::intent::Relation::Of, _)));
    if let Some(t) = target
        .text
        .as_ref()
        .filter(|_| !anchor_missing && !of_thing)
    {
        if let Some(e) = naming(cx, t) {
            return click(cx, e);
        }
    }
    // A list shown a page at a time: its next page (a link, not a form's
    // "Next" button, which would send a form half filled).
    if let Some(e) = target
        .text
        .as_ref()
        .and_then(|_| pager(cx, cursor))
        .filter(|e| e.facts.tag == "a" || e.role() == crate::page::Role::Link || !in_form(cx, e))
    {
        return click(cx, e);
    }
    // A box that scrolls inside the page may hold it (a licence, a log).
    if let Some(t) = super::region::look_within(cx) {
        return Outcome::Act(t);
    }
    look(
        cx,
        target.text.as_deref().unwrap_or("what the task names"),
        cursor,
    )
}

/// Of the openers `hidden`, the one that belongs to the item `anchor`
/// names: its own name holds the anchor ("More actions for Priya Nair"),
/// else its row does (an icon named only "More options" in the row of
/// "Q3 report.pdf"), else the first opener after the anchor's first
/// mention in reading order. Only when the list has more than one such opener
/// does the row decide; a page with one menu needs no anchor.
pub fn row_opener<'p>(cx: &Cx<'p>, hidden: &[&'p Observed], anchor: &str) -> Option<&'p Observed> {
    let words = crate::text::normalize(anchor);
    if words.is_empty() || hidden.len() < 2 {
        return None;
    }
    let own = hidden.iter().find(|e| {
        [e.label(), e.facts.aria_label.as_str()]
            .iter()
            .any(|l| format!(" {} ", crate::text::normalize(l)).contains(&format!(" {words} ")))
    });
    if let Some(e) = own {
        return Some(e);
    }
    if let Some(e) = hidden.iter().find(|e| row_holds(e, &words)) {
        return Some(e);
    }
    let index = |e: &Observed| cx.page.elements.iter().position(|x| std::ptr::eq(x, e));
    let (_, end) = *cx.layout.occurrences(anchor).first()?;
    hidden
        .iter()
        .filter_map(|e| Some((cx.layout.offset(index(e)?)?, *e)))
        .filter(|(at, _)| *at >= end)
        .min_by_key(|(at, _)| *at)
        .map(|(_, e)| e)
}

/// A control of a form that has fields (a pager button outside any form
/// sends nothing).
fn in_form(cx: &Cx<'_>, e: &Observed) -> bool {
    e.facts.form != 0
        && cx
            .page
            .elements
            .iter()
            .any(|f| f.facts.form == e.facts.form && f.is_field())
}

/// An opener that belongs to a row of a list: its row (DomFacts::row)
/// says more than its own name.
fn in_row(e: &Observed) -> bool {
    let row = crate::text::normalize(&e.facts.row);
    !row.is_empty() && row != crate::text::normalize(e.label())
}

/// Of the openers, those outside rows, and of the row openers only the
/// one whose row covers most of the content words of `wanted` (at least
/// two, or all when fewer; ties to the row with the fewest other words):
/// "Q3 report.pdf" is the row "Q3 report.pdf Oct 31", not "Q3 report
/// draft.pdf Oct 28", and no row's menu for an item not shown.
pub fn rows_for<'p>(openers: Vec<&'p Observed>, wanted: &str) -> Vec<&'p Observed> {
    let want = crate::text::concepts(wanted);
    let cover = |e: &Observed| {
        let mut have = crate::text::concepts(&e.facts.row);
        have.extend(crate::text::concepts(e.label()));
        let covered = want.iter().filter(|w| have.contains(w)).count();
        (covered, have.len().saturating_sub(covered))
    };
    let need = want.len().min(2);
    let best = openers
        .iter()
        .filter(|e| in_row(e))
        .map(|e| cover(e))
        .filter(|(c, _)| *c >= need && *c > 0)
        .max_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.cmp(&a.1)));
    openers
        .into_iter()
        .filter(|e| !in_row(e) || best.is_some_and(|b| cover(e) == b))
        .collect()
}

/// The row or list item `e` sits in (DomFacts::row) holds the normalised
/// words `words`.
pub fn row_holds(e: &Observed, words: &str) -> bool {
    !words.is_empty()
        && format!(" {} ", crate::text::normalize(&e.facts.row)).contains(&format!(" {words} "))
}

/// The control that shows the next page of a list ("Next", "Next page",
/// "›", "Load more", "Show more results"), when clicking it has not
/// stopped changing the page.
pub fn pager<'p>(cx: &Cx<'p>, cursor: usize) -> Option<&'p Observed> {
    const WORDS: &[&str] = &[
        "next", "page", "more", "load", "show", "results", "older", "items",
    ];
    cx.page
        .elements
        .iter()
        .filter(|e| !e.is_field() && !e.is_checkable() && !e.is_disabled() && !cx.avoided(e))
        .filter(|e| !cx.useless_click(cursor, e))
        .filter(|e| {
            let label = e.label().trim();
            let words = crate::planner::layout::normalize(label);
            let ws: Vec<&str> = words.split(' ').filter(|w| !w.is_empty()).collect();
            let arrow = ws.is_empty() && matches!(label, "›" | "»" | ">" | "→" | ">>");
            arrow
                || (!ws.is_empty()
                    && ws.len() <= 3
                    && ws.iter().all(|w| WORDS.contains(w))
                    && ws.iter().any(|w| matches!(*w, "next" | "more" | "older")))
        })
        .min_by(|a, b| reading_order(a, b))
}

/// A button or link, not clicked yet, whose words share the content words
/// of `what` (most shared first; ties in reading order).
pub fn naming<'p>(cx: &Cx<'p>, what: &str) -> Option<&'p Observed> {
    let want: Vec<String> = crate::text::concepts(what);
    if want.is_empty() {
        return None;
    }
    // More than half of the words ("coupon code" in "Add a coupon code"
    // for "coupon code SPRING20"), all of one or two ("Issue 1" is not
    // "Issue 128").
    let need = want.len() / 2 + 1;
    cx.page
        .elements
        .iter()
        .filter(|e| {
            !e.is_field()
                && !e.is_checkable()
                && !e.is_disabled()
                && !cx.avoided(e)
                && !cx.is_instruction(e)
                && cx.clicked_since(0, e).is_none()
        })
        .map(|e| {
            let have = crate::text::concepts(e.label());
            (want.iter().filter(|w| have.contains(w)).count(), e)
        })
        .filter(|(n, _)| *n >= need)
        .max_by(|a, b| a.0.cmp(&b.0).then_with(|| reading_order(b.1, a.1)))
        .map(|(_, e)| e)
}

/// Nothing to open: wait for a changing page, scroll, go back, give up.
pub fn look(cx: &Cx<'_>, what: &str, cursor: usize) -> Outcome {
    // A page still building after a click: one look before deciding.
    if settling(cx) {
        return Outcome::Act(Tool::Observe { wait_ms: Some(300) });
    }
    // A page that says it is still loading its content (a client-rendered
    // app's skeleton with "Loading your accounts…"): what is sought may be
    // on its way; a few looks a second apart before scrolling or deciding
    // it is not here.
    if super::loading_shown(cx) && cx.count_since(cursor, "observe") < MAX_LOADING_LOOKS {
        return Outcome::Act(Tool::Observe {
            wait_ms: Some(1000),
        });
    }
    let scrolls = cx.count_since(cursor, "scroll");
    let long_page_first = cx
        .page
        .elements
        .iter()
        .any(|e| !e.element.in_viewport || super::off_screen(cx, e));
    // What is sought is elsewhere: the link whose words are most like the
    // task's (not tried yet; one that led nowhere is avoided).
    if !long_page_first || scrolls >= 2 {
        if let Some(e) = related_link(cx, what) {
            return click(cx, e);
        }
    }
    let long_page = cx
        .page
        .elements
        .iter()
        .any(|e| !e.element.in_viewport || super::off_screen(cx, e));
    if scrolls < MAX_LOOK_SCROLLS && (long_page || scrolls < 2) {
        // Most of a screen at a time (some overlap keeps a row whole).
        let amount = cx
            .page
            .viewport_height
            .map(|h| (h * 0.8) as u32)
            .filter(|a| *a >= 200)
            .unwrap_or(600);
        return Outcome::Act(Tool::Scroll {
            direction: Direction::Down,
            amount,
            id: None,
            within: false,
        });
    }
    // A page that shows no control to fill at all may still be mounting: a
    // client-rendered app (a React checkout) draws its form into an empty
    // root some time after the load, and a fast driver (`sentience act`)
    // has scrolled the empty page twice by then. One look, with a wait,
    // before turning back or giving up.
    let looked = cx
        .history
        .iter()
        .skip(cursor)
        .any(|h| h.action == "observe");
    if !looked && !cx.page.elements.iter().any(|e| e.is_field()) {
        return Outcome::Act(Tool::Observe {
            wait_ms: Some(1000),
        });
    }
    if let Some(t) = super::super::recover::back(cx) {
        return Outcome::Act(t);
    }
    Outcome::Stuck(format!("nothing on this page matches {what}"))
}

/// The link (on this page, not clicked from it before) that shares the most
/// content words with the task, when one shares any. Not another item of
/// the list the target belongs to ("Issue 1" when "Issue 128" is sought:
/// the same words, another number): that list goes on further down, it
/// does not lead elsewhere.
fn related_link<'p>(cx: &Cx<'p>, what: &str) -> Option<&'p Observed> {
    let task = crate::text::concepts(cx.task);
    let sibling = |label: &str| enumerated_sibling(label, what);
    // Clicked from this document before: an in-page link ("#plan") moves
    // the address but not the page, and clicking it again would not move
    // the task either.
    let document = |u: &str| u.split('#').next().unwrap_or_default().to_string();
    let here = document(&cx.page.url);
    let clicked_here = |e: &Observed| {
        cx.history.iter().any(|h| {
            h.action == "click"
                && h.url.as_deref().map(document).as_deref() == Some(here.as_str())
                && h.element_text.as_deref() == Some(crate::text::truncate(e.label(), 80).as_str())
        })
    };
    cx.page
        .elements
        .iter()
        .filter(|e| (e.role() == crate::page::Role::Link || e.facts.tag == "a") && !e.is_disabled())
        .filter(|e| !cx.avoided(e) && !cx.is_instruction(e) && !clicked_here(e))
        .filter(|e| !sibling(e.label()))
        .map(|e| {
            let have = crate::text::concepts(e.label());
            (
                have.iter()
                    .filter(|c| c.len() > 2 && task.contains(c))
                    .count(),
                e,
            )
        })
        .filter(|(n, _)| *n > 0)
        .max_by(|a, b| a.0.cmp(&b.0).then_with(|| reading_order(b.1, a.1)))
        .map(|(_, e)| e)
}

/// `label` and `target` name items of one numbered list: the same words
/// apart from their numbers, and different numbers.
pub(crate) fn enumerated_sibling(label: &str, target: &str) -> bool {
    let split = |s: &str| {
        let (nums, words): (Vec<String>, Vec<String>) = crate::text::concepts(s)
            .into_iter()
            .partition(|w| w.chars().any(|c| c.is_ascii_digit()));
        (nums, words)
    };
    let (ln, lw) = split(label);
    let (tn, tw) = split(target);
    !ln.is_empty() && !tn.is_empty() && !lw.is_empty() && lw == tw && ln != tn
}
