//! Reading and answering (docs/agent.md "Carrying out the steps", Find):
//! "What is the order total?", "Could you tell me what the total of this
//! order was?", "Read the order total". The question's content words name
//! a label the page shows ("Order total"); the answer is the value just
//! after it in the visible text, as written there ("$87.51"). A label is
//! the nearest run of the page's words holding every content word; a
//! value is the first token with a digit within a few words after it,
//! else the next few words.

use crate::planner::layout::normalize;

/// Words of a question that name no part of the answer's label.
const ASKING: &[&str] = &[
    "what", "whats", "which", "who", "how", "much", "many", "is", "was", "are", "were", "be",
    "the", "a", "an", "this", "that", "these", "my", "our", "your", "its", "of", "for", "me", "us",
    "tell", "could", "would", "can", "you", "please", "read", "find", "show", "say", "says", "it",
    "on", "in", "page", "here", "current", "value", "amount",
];

/// The content words of a question ("what the total of this order was" →
/// ["total", "order"]).
pub fn content_words(about: &str) -> Vec<String> {
    normalize(about)
        .split(' ')
        .filter(|w| !w.is_empty() && !ASKING.contains(w))
        .map(str::to_string)
        .collect()
}

/// The value the page shows after the label the question names, with the
/// label as the page writes it: `("Order total", "$87.51")`.
pub fn answer(visible_text: &str, about: &str) -> Option<(String, String)> {
    let want = content_words(about);
    if want.is_empty() || want.len() > 4 {
        return None;
    }
    let toks: Vec<&str> = visible_text.split_whitespace().collect();
    let norm: Vec<String> = toks.iter().map(|t| normalize(t)).collect();
    // The shortest window holding every content word (a label is a few
    // words; "Order #58213 … Subtotal" holds "order" but not "total").
    let mut best: Option<(usize, usize)> = None;
    for start in 0..toks.len() {
        if !want.contains(&norm[start]) {
            continue;
        }
        let mut seen: Vec<&str> = Vec::new();
        for (end, w) in norm.iter().enumerate().skip(start).take(want.len() + 2) {
            if want.contains(w) && !seen.contains(&w.as_str()) {
                seen.push(w);
            }
            if seen.len() == want.len() {
                if best.is_none_or(|(s, e)| end - start < e - s) {
                    best = Some((start, end));
                }
                break;
            }
        }
    }
    let (s, e) = best?;
    let label = toks[s..=e].join(" ");
    let after = &toks[e + 1..];
    let value = after
        .iter()
        .take(4)
        .find(|t| t.chars().any(|c| c.is_ascii_digit()))
        .map(|t| t.trim_end_matches([',', ';', '.', ')']).to_string())
        .or_else(|| {
            (!after.is_empty()).then(|| after.iter().take(6).copied().collect::<Vec<_>>().join(" "))
        })?;
    Some((label.trim_end_matches(':').to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECEIPT: &str = "Hearth & Co Shop Orders Order #58213 Placed on November 3, 2026 \
        Linen napkins (set of 4) $32.00 Stoneware bowl × 2 $44.00 Subtotal $76.00 \
        Shipping $6.95 Tax $4.56 Order total $87.51 Paid with Visa ending in 4410.";

    #[test]
    fn a_question_is_answered_by_the_value_after_the_label_it_names() {
        for q in [
            "the order total",
            "what the total of this order was",
            "order total?",
        ] {
            assert_eq!(
                answer(RECEIPT, q),
                Some(("Order total".to_string(), "$87.51".to_string())),
                "{q}"
            );
        }
        assert_eq!(
            answer(RECEIPT, "the shipping").map(|a| a.1),
            Some("$6.95".into())
        );
        assert_eq!(
            answer(RECEIPT, "the tax amount").map(|a| a.1),
            Some("$4.56".into())
        );
    }

    #[test]
    fn nothing_is_answered_when_the_page_never_names_the_label() {
        assert_eq!(answer(RECEIPT, "the delivery date"), None);
        assert_eq!(answer(RECEIPT, "what is it"), None);
    }
}
