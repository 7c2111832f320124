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
    "what",
    "whats",
    "which",
    "who",
    "how",
    "much",
    "many",
    "is",
    "was",
    "are",
    "were",
    "be",
    "the",
    "a",
    "an",
    "this",
    "that",
    "these",
    "my",
    "our",
    "your",
    "its",
    "of",
    "for",
    "me",
    "us",
    "tell",
    "could",
    "would",
    "can",
    "you",
    "please",
    "read",
    "find",
    "show",
    "say",
    "says",
    "it",
    "on",
    "in",
    "page",
    "here",
    "current",
    "value",
    "amount",
    "money",
    "i",
    "have",
    "has",
    "got",
    "do",
    "does",
    "right",
    "now",
    "there",
    "left",
    "currently",
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

/// The value the page shows with the label the question names, with the
/// label as the page writes it: `("Order total", "$87.51")`.
///
/// A label is the shortest run of the page's words holding every content
/// word the page shows at all (a question's own words the page never
/// writes, "how much *money* is in my savings *account*", name nothing on
/// it; at least half of them must be there). The value is the one the
/// label frames when its words lie on both sides of it (a card: "Savings
/// ••7725 $12,480.22 Available balance"), else one of the few words after
/// it; an amount of money is preferred to other numbers (an account's
/// "••7725", a rate's "4.10%").
pub fn answer(visible_text: &str, about: &str) -> Option<(String, String)> {
    let asked = content_words(about);
    if asked.is_empty() {
        return None;
    }
    let toks: Vec<&str> = visible_text.split_whitespace().collect();
    // A token's words ("High-Yield" → "high yield").
    let norm: Vec<Vec<String>> = toks
        .iter()
        .map(|t| normalize(t).split(' ').map(str::to_string).collect())
        .collect();
    let shown = |w: &String| norm.iter().any(|ws| ws.contains(w));
    let want: Vec<String> = asked.iter().filter(|w| shown(w)).cloned().collect();
    if want.is_empty() || want.len() > 4 || want.len() * 2 < asked.len() {
        return None;
    }
    let holds = |i: usize| {
        norm[i]
            .iter()
            .filter(|w| want.contains(w))
            .collect::<Vec<_>>()
    };
    // The shortest window holding every content word (a label is a few
    // words; "Order #58213 … Subtotal" holds "order" but not "total").
    let mut best: Option<(usize, usize)> = None;
    for start in 0..toks.len() {
        if holds(start).is_empty() {
            continue;
        }
        let mut seen: Vec<&String> = Vec::new();
        for end in (start..toks.len()).take(want.len() + 3) {
            for w in holds(end) {
                if !seen.contains(&w) {
                    seen.push(w);
                }
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
    let money = |t: &&&str| t.chars().any(|c| "$€£¥₹".contains(c));
    let digit = |t: &&&str| t.chars().any(|c| c.is_ascii_digit());
    let pick = |ts: &[&str]| -> Option<String> {
        let near: Vec<&&str> = ts.iter().collect();
        near.iter()
            .find(|t| money(t) && digit(t))
            .or_else(|| near.iter().find(|t| digit(t)))
            .map(|t| t.trim_end_matches([',', ';', '.', ')']).to_string())
    };
    // Inside the label: the words it frames that name none of the asked.
    let inner: Vec<&str> = (s..=e)
        .filter(|&i| holds(i).is_empty())
        .map(|i| toks[i])
        .collect();
    if let Some(v) = pick(&inner) {
        let label: Vec<&str> = (s..=e)
            .filter(|&i| !holds(i).is_empty())
            .map(|i| toks[i])
            .collect();
        return Some((label.join(" ").trim_end_matches(':').to_string(), v));
    }
    let label = toks[s..=e].join(" ");
    let after = &toks[e + 1..];
    let value = pick(&after[..after.len().min(4)]).or_else(|| {
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

    const ACCOUNTS: &str =
        "Good morning, Tom Everyday Checking ••4410 $2,318.40 Available balance \
        View transactions High-Yield Savings ••7725 $12,480.22 Available balance · 4.10% APY \
        View transactions Rewards Visa ••0093 $641.07 Current balance";

    #[test]
    fn a_value_framed_by_its_label_on_a_card_is_read_and_an_amount_wins() {
        for q in [
            "the savings balance",
            "how much money is in my savings account",
            "the balance of High-Yield Savings",
            "how much have I got in savings right now",
        ] {
            assert_eq!(
                answer(ACCOUNTS, q).map(|a| a.1),
                Some("$12,480.22".into()),
                "{q}"
            );
        }
    }

    #[test]
    fn nothing_is_answered_when_the_page_never_names_the_label() {
        assert_eq!(answer(RECEIPT, "the delivery date"), None);
        assert_eq!(answer(RECEIPT, "what is it"), None);
    }
}
