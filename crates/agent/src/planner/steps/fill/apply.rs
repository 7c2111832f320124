//! A button that belongs to one field and must take its value in before
//! the form is sent: "Apply" beside a promo-code box, "Find address" or
//! "Look up" beside a postcode, "Check availability", "Verify". Typing
//! the value is not enough: the page reads it only when that button is
//! pressed (it reveals an address list, applies a discount). The button
//! sits in the field's row (to its right) or just under it, and no other
//! field is nearer to it.

use crate::planner::context::{ok, Cx};
use crate::planner::form::{is_button, way_out};
use crate::text::normalize;
use sentience_snapshot_core::Observed;

/// First words of a button that takes in the field beside it.
const TAKES_IN: &[&str] = &[
    "apply", "find", "look", "lookup", "check", "verify", "validate", "redeem",
];

/// The first field of `filled` whose own button was not pressed since its
/// value was last typed: that button.
pub fn unpressed<'p>(cx: &Cx<'p>, filled: &[&'p Observed]) -> Option<&'p Observed> {
    filled.iter().find_map(|f| {
        if !f.is_text_entry() {
            return None;
        }
        let b = own_button(cx, f)?;
        let typed = cx
            .history
            .iter()
            .rposition(|h| h.action == "type" && ok(h) && cx.on(h, f))?;
        let pressed = cx
            .history
            .iter()
            .skip(typed + 1)
            .any(|h| h.action == "click" && cx.on(h, b));
        (!pressed).then_some(b)
    })
}

/// A button that takes in the field beside it (not the form's submit): a
/// form's submit control is looked for among the others first.
pub fn is_own_button(cx: &Cx<'_>, b: &Observed) -> bool {
    // Only a field `b` stands beside can own it (`gap`): the cheap test
    // first, since `submit_control` asks this of every candidate.
    takes_in(b)
        && b.has_box()
        && cx.page.elements.iter().any(|f| {
            f.is_text_entry()
                && f.has_box()
                && gap(f, b).is_some()
                && own_button(cx, f).is_some_and(|o| std::ptr::eq(o, b))
        })
}

fn takes_in(b: &Observed) -> bool {
    b.facts.input_type != "submit"
        && normalize(b.label())
            .split(' ')
            .next()
            .is_some_and(|w| TAKES_IN.contains(&w))
}

/// The button beside field `f` that takes it in, if it is `f`'s own.
fn own_button<'p>(cx: &Cx<'p>, f: &Observed) -> Option<&'p Observed> {
    if !f.has_box() {
        return None;
    }
    let b = cx
        .page
        .elements
        .iter()
        .filter(|b| is_button(b) && !way_out(b) && takes_in(b) && b.has_box() && !cx.avoided(b))
        .filter_map(|b| gap(f, b).map(|g| (g, b)))
        .min_by(|a, b| a.0.total_cmp(&b.0))?
        .1;
    // No other text field nearer to it: it is this field's button.
    let mine = gap(f, b)?;
    let other_nearer = cx.page.elements.iter().any(|o| {
        o.is_text_entry()
            && !std::ptr::eq(o, f)
            && o.has_box()
            && gap(o, b).is_some_and(|g| g < mine)
    });
    (!other_nearer).then_some(b)
}

/// How far button `b` is from field `f`, when it is in the field's row
/// to its right or just under it; `None` when it is neither.
fn gap(f: &Observed, b: &Observed) -> Option<f64> {
    let (fb, bb) = (f.element.bbox, b.element.bbox);
    let f_mid = fb.y + fb.height / 2.0;
    let b_mid = bb.y + bb.height / 2.0;
    let same_row = (f_mid - b_mid).abs() <= fb.height.max(bb.height) / 2.0;
    let right = bb.x - (fb.x + fb.width);
    if same_row && (-4.0..=240.0).contains(&right) {
        return Some(right.max(0.0));
    }
    let below = bb.y - (fb.y + fb.height);
    let overlaps = bb.x < fb.x + fb.width && bb.x + bb.width > fb.x;
    (overlaps && (-2.0..=40.0).contains(&below)).then_some(below.max(0.0) + 10.0)
}
