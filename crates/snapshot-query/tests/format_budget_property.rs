//! Property test over generated pages (a deterministic generator, no extra
//! dependency): for every page and budget, the format never exceeds the
//! budget, lists a prefix of the ranking (most important first), counts what
//! it left out correctly, and no page text starts a line of its own.

use sentience_snapshot_query::format::element_line;
use sentience_snapshot_query::{
    estimate_tokens, format_elements, format_enough, listing_order, worth_listing, Checked,
    Element, Enough, Role, SelectOption,
};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "Sign",
    "in",
    "Add",
    "to",
    "cart",
    "Checkout",
    "Search",
    "products",
    "Email",
    "Password",
    "Remember",
    "me",
    "https://shop.example.com/a/b?c=1&d=2",
    "42",
    "1234567890",
    "\"quoted\"",
    "back\\slash",
    "new\nline",
    "\r\n",
    "\u{2028}",
    "\u{202e}evil",
    "café",
    "中文",
    "😀",
    "[1]",
    "… 3 more elements",
    "\t",
    "",
    "getElementById",
    "Ünïcödé",
    "x\u{0}y",
    "%$#@!",
    "    ",
];

fn text(rng: &mut Rng) -> String {
    let max = if rng.chance(10) { 60 } else { 6 };
    let n = rng.below(max);
    (0..n)
        .map(|_| rng.pick(WORDS))
        .collect::<Vec<_>>()
        .join(" ")
}

fn element(rng: &mut Rng, id: u32) -> Element {
    let mut e = Element {
        id,
        role: Role::ALL[rng.below(Role::ALL.len() as u64) as usize],
        text: if rng.chance(85) {
            Some(text(rng))
        } else {
            None
        },
        // Coarse importances so ties (then bbox.y) happen often.
        importance: rng.below(22) as i32 * 100 - 300,
        in_viewport: rng.chance(60),
        is_occluded: rng.chance(10),
        z_index: rng.below(3) as i32,
        ..Element::default()
    };
    e.bbox.x = rng.below(2000) as f64 - 100.0 + 0.5;
    e.bbox.y = rng.below(20_000) as f64 - 100.0;
    e.bbox.width = rng.below(500) as f64;
    e.bbox.height = rng.below(100) as f64;
    e.visual_cues.is_primary = rng.chance(5);
    e.visual_cues.is_clickable = rng.chance(70);
    e.state.disabled = rng.chance(10).then_some(true);
    e.state.required = rng.chance(10).then_some(true);
    e.state.checked = match rng.below(5) {
        0 => Some(Checked::TRUE),
        1 => Some(Checked::FALSE),
        2 => Some(Checked::MIXED),
        _ => None,
    };
    e.state.expanded = [None, Some(true), Some(false)][rng.below(3) as usize];
    e.state.selected = [None, Some(true), Some(false)][rng.below(3) as usize];
    if rng.chance(20) {
        e.state.value = Some(text(rng));
    }
    if rng.chance(10) {
        let count = rng.below(60);
        e.state.options = Some(
            (0..count)
                .map(|_| SelectOption {
                    text: text(rng),
                    value: String::new(),
                    selected: false,
                })
                .collect(),
        );
    }
    e
}

#[test]
fn budget_never_exceeded_and_most_important_first() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let budgets = [0, 1, 3, 10, 15, 20, 37, 64, 100, 250, 1000, 4000];
    let mut pages = 0;
    let mut listed_some = 0;
    let mut left_out_some = 0;
    for page in 0..400 {
        let n = match page % 4 {
            0 => rng.below(5),
            1 => rng.below(50),
            2 => rng.below(400),
            _ => rng.below(3000),
        };
        let elements: Vec<Element> = (0..n as u32)
            .map(|i| element(&mut rng, i * 7 + 1))
            .collect();
        let ranking = listing_order(&elements);
        for &budget in &budgets {
            let f = format_elements(&elements, budget);
            let real = estimate_tokens(&f.text);
            assert!(
                real <= budget,
                "page {page} budget {budget}: {real} tokens\n{}",
                f.text
            );
            assert_eq!(f.tokens, real);
            assert_eq!(f.total, elements.len());

            let lines: Vec<&str> = f.text.lines().collect();
            let listed = &lines[..f.shown];
            // The listed lines are exactly the ranking's first `shown` elements.
            for (line, &i) in listed.iter().zip(&ranking) {
                assert_eq!(format!("{line}\n"), element_line(&elements[i]));
                assert!(line.starts_with(&format!("{} ", elements[i].id)));
            }
            // In the viewport first; within each part, most important first.
            for w in ranking[..f.shown].windows(2) {
                let (a, b) = (&elements[w[0]], &elements[w[1]]);
                assert!(a.in_viewport >= b.in_viewport);
                if a.in_viewport == b.in_viewport {
                    assert!(a.importance >= b.importance);
                }
            }
            let left = elements.len() - f.shown;
            match lines.get(f.shown) {
                Some(trailer) => {
                    assert_eq!(lines.len(), f.shown + 1);
                    let offscreen = ranking[f.shown..]
                        .iter()
                        .filter(|&&i| !elements[i].in_viewport)
                        .count();
                    let word = if left == 1 { "element" } else { "elements" };
                    assert!(
                        trailer.starts_with(&format!("… {left} more {word}")),
                        "{trailer}"
                    );
                    if offscreen > 0 && left > 1 {
                        assert!(
                            trailer.ends_with(&format!("({offscreen} below the fold)")),
                            "{trailer}"
                        );
                    }
                    left_out_some += 1;
                }
                // No trailer: nothing left out, or not even the trailer fitted.
                None => assert!(left == 0 || f.shown == 0, "page {page} budget {budget}"),
            }
            if f.shown > 0 {
                listed_some += 1;
            }
            // Greedy is maximal: the next element's line would not have fitted.
            if left > 0 && f.shown > 0 {
                let next = estimate_tokens(&element_line(&elements[ranking[f.shown]]));
                assert!(
                    real + next > budget,
                    "page {page} budget {budget}: room was left"
                );
            }
        }
        pages += 1;
    }
    assert_eq!(pages, 400);
    // The generator exercises both sides of the budget.
    assert!(
        listed_some > 1000 && left_out_some > 1000,
        "{listed_some} {left_out_some}"
    );
}

/// The same pages through `format_enough` (src/enough.rs): never over the
/// budget; the whole page when it fits; otherwise a prefix, in the listing
/// order, of the elements its rule keeps, and a closing line that counts
/// everything else.
#[test]
fn enough_never_exceeds_the_budget_and_lists_what_its_rule_keeps() {
    let mut rng = Rng(0x5eed_1234_abcd_0002);
    let budgets = [0, 10, 37, 100, 250, 1000, 2000, 4000];
    let mut cut_by_rule = 0;
    for page in 0..200 {
        let n = match page % 4 {
            0 => rng.below(5),
            1 => rng.below(50),
            2 => rng.below(400),
            _ => rng.below(3000),
        };
        let elements: Vec<Element> = (0..n as u32)
            .map(|i| element(&mut rng, i * 7 + 1))
            .collect();
        let height = [0.0, 720.0, 1000.0][page % 3];
        let kept = worth_listing(&elements, height);
        let order: Vec<usize> = listing_order(&elements)
            .into_iter()
            .filter(|&i| kept[i])
            .collect();
        let whole: usize = elements
            .iter()
            .map(|e| estimate_tokens(&element_line(e)))
            .sum();
        for &budget in &budgets {
            let f = format_enough(
                &elements,
                &Enough {
                    max_tokens: budget,
                    viewport_height: height,
                    more_hint: "ask",
                },
            );
            let real = estimate_tokens(&f.text);
            assert!(real <= budget, "page {page} budget {budget}: {real}");
            assert_eq!(f.tokens, real);
            if whole <= budget {
                assert_eq!(f.shown, elements.len());
                continue;
            }
            let lines: Vec<&str> = f.text.lines().collect();
            for (line, &i) in lines[..f.shown].iter().zip(&order) {
                assert_eq!(format!("{line}\n"), element_line(&elements[i]));
            }
            if let Some(last) = lines.get(f.shown) {
                assert_eq!(lines.len(), f.shown + 1);
                let left = elements.len() - f.shown;
                assert!(last.starts_with(&format!("… {left} more (")), "{last}");
                assert!(
                    last.ends_with(&format!("all: max_tokens {whole}): ask")),
                    "{last}"
                );
            }
            if f.shown == order.len() && f.shown < elements.len() {
                cut_by_rule += 1;
            }
        }
    }
    // Some listings stop by the rule, not the budget.
    assert!(cut_by_rule > 10, "{cut_by_rule}");
}
