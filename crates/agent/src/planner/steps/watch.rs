//! The value a condition watches ("until the price drops below $40",
//! "if Premium costs less than $20"): the first number after the
//! subject's words; when no number follows them ("the price" said in a
//! footnote, "it", a name the page does not use), the first amount of money the page shows — a quote
//! page's price, a checkout's total — as a person reads the page top down.

use crate::planner::context::Cx;
use crate::planner::layout::number_in;

/// Characters before an amount of money.
const CURRENCY: &[char] = &['$', '€', '£', '¥', '₹'];

pub fn value(cx: &Cx<'_>, subject: &str) -> Option<f64> {
    cx.layout
        .occurrences(subject)
        .into_iter()
        .find_map(|(_, end)| cx.layout.number_after(end, 120))
        .or_else(|| first_amount(&cx.page.visible_text))
}

fn first_amount(text: &str) -> Option<f64> {
    text.match_indices(CURRENCY)
        .map(|(i, c)| &text[i + c.len()..])
        .find(|rest| rest.starts_with(|d: char| d.is_ascii_digit()))
        .and_then(number_in)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_first_amount_of_money_is_the_one_after_a_currency_sign() {
        assert_eq!(
            super::first_amount("NASDAQ · USD Novalight (NVLT) $46.20 −0.30% Open $46.50"),
            Some(46.2)
        );
        assert_eq!(super::first_amount("Trip 3 leaves at 7:24"), None);
    }
}
