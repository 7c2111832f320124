// `format_enough`: the listing that stops when the rest of the page is not
// worth its tokens (src/enough.rs; docs/mcp.md "How much a snapshot lists").
use sentience_snapshot_query::format::element_line;
use sentience_snapshot_query::{
    estimate_tokens, format_elements, format_enough, listing_order, near_viewport, BBox, Element,
    Enough, Entry, Role, VisualCues,
};

const VIEWPORT_H: f64 = 720.0;
const HINT: &str = "browser_find {query}, or browser_scroll";

fn el(id: u32, role: Role, text: &str, y: f64, importance: i32) -> Element {
    Element {
        id,
        role,
        text: Some(text.to_string()),
        importance,
        bbox: BBox {
            x: 10.0,
            y,
            width: 200.0,
            height: 20.0,
        },
        visual_cues: VisualCues {
            is_clickable: true,
            ..VisualCues::default()
        },
        in_viewport: (0.0..VIEWPORT_H).contains(&y),
        ..Element::default()
    }
}

/// A news front page in miniature: a header in view, a few stories one
/// scroll down, then a long tail of links with a newsletter form (a field
/// and a primary button) far below, and a scrolled-past link far above.
fn long_page() -> Vec<Element> {
    let mut v = vec![
        el(1, Role::Searchbox, "Search", 20.0, 1037),
        el(2, Role::Button, "Menu", 20.0, 520),
        el(3, Role::Link, "World", 60.0, 110),
        el(4, Role::Link, "Business", 60.0, 110),
        el(5, Role::Link, "A headline in view", 300.0, 150),
        // One scroll away, below and above.
        el(6, Role::Link, "A story just below the fold", 900.0, -250),
        el(7, Role::Button, "Load more", 1400.0, 10),
        el(8, Role::Link, "Back up, scrolled past", -500.0, -250),
        // Far away: the form an agent may need, and the long tail.
        el(9, Role::Textbox, "Email address", 6000.0, 530),
        el(11, Role::Link, "Far above", -3000.0, -300),
    ];
    let mut submit = el(10, Role::Button, "Subscribe", 6000.0, 210);
    submit.visual_cues.is_primary = true;
    v.push(submit);
    for i in 0..200 {
        v.push(el(
            100 + i,
            Role::Link,
            &format!("Another story from the archive, number {i}"),
            2000.0 + f64::from(i) * 30.0,
            -300,
        ));
    }
    v
}

fn enough(max_tokens: usize) -> Enough<'static> {
    Enough {
        max_tokens,
        viewport_height: VIEWPORT_H,
        more_hint: HINT,
    }
}

fn listed_ids(text: &str) -> Vec<u32> {
    text.lines()
        .filter_map(|l| l.split(' ').next()?.parse().ok())
        .collect()
}

fn whole_cost(elements: &[Element]) -> usize {
    elements
        .iter()
        .map(|e| estimate_tokens(&element_line(e)))
        .sum()
}

#[test]
fn a_long_page_stops_before_its_long_tail() {
    let page = long_page();
    let whole = whole_cost(&page);
    assert!(whole > 2000, "the fixture must not fit: {whole}");
    let f = format_enough(&page, &enough(2000));
    let mut ids = listed_ids(&f.text);
    ids.sort_unstable();
    // In view (1-5), one scroll away (6-8), the far field and primary
    // action (9, 10); not the far links (11, the tail).
    assert_eq!(ids, (1..=10).collect::<Vec<u32>>(), "{}", f.text);
    assert_eq!(f.shown, 10);
    assert_eq!(f.total, page.len());
    // Far below the budget: the budget is a cap, not the answer's size.
    assert!(f.tokens < 400, "{} tokens:\n{}", f.tokens, f.text);
    // The plain format fills it.
    assert!(format_elements(&page, 2000).tokens > 1800);
    let last = f.text.lines().last().unwrap_or_default();
    assert_eq!(
        last,
        format!("… 201 more (201 links; 201 below the fold; all: max_tokens {whole}): {HINT}")
    );
}

#[test]
fn a_page_that_fits_is_listed_whole() {
    let page = long_page();
    let whole = whole_cost(&page);
    // The closing line's budget lists it all, the same lines as the plain
    // format, in its order.
    let f = format_enough(&page, &enough(whole));
    assert_eq!(f.shown, page.len());
    assert_eq!(f.text, format_elements(&page, usize::MAX).text);
    assert_eq!(f.tokens, whole);
    // One token less and the rule applies again.
    let g = format_enough(&page, &enough(whole - 1));
    assert_eq!(g.shown, 10);
}

#[test]
fn the_budget_stays_a_hard_cap() {
    let page = long_page();
    let order = listing_order(&page);
    let chosen: Vec<u32> = order
        .iter()
        .map(|&i| &page[i])
        .filter(|e| e.id <= 10)
        .map(|e| e.id)
        .collect();
    for budget in (0..=420).step_by(3) {
        let f = format_enough(&page, &enough(budget));
        assert!(f.tokens <= budget, "budget {budget}: {}", f.tokens);
        assert_eq!(f.tokens, estimate_tokens(&f.text));
        // A prefix of the chosen elements, in the listing's order.
        assert_eq!(listed_ids(&f.text), chosen[..f.shown], "budget {budget}");
        // Whenever anything is listed, the closing line is there, counting
        // everything else.
        if f.shown > 0 {
            let last = f.text.lines().last().unwrap_or_default();
            let left = page.len() - f.shown;
            assert!(last.starts_with(&format!("… {left} more (")), "{last}");
        }
    }
}

#[test]
fn near_means_within_one_viewport_height() {
    let at = |y: f64| el(1, Role::Link, "x", y, -300);
    assert!(near_viewport(&at(2.0 * VIEWPORT_H - 1.0), VIEWPORT_H));
    assert!(!near_viewport(&at(2.0 * VIEWPORT_H), VIEWPORT_H));
    // A 20 px box ending just inside one viewport above.
    assert!(near_viewport(&at(-VIEWPORT_H - 19.0), VIEWPORT_H));
    assert!(!near_viewport(&at(-VIEWPORT_H - 20.0), VIEWPORT_H));
    // An unknown viewport makes nothing near.
    assert!(!near_viewport(&at(900.0), 0.0));
    assert!(!near_viewport(&at(900.0), f64::NAN));
}

#[test]
fn the_closing_line_counts_by_role() {
    let mut page = vec![el(1, Role::Button, "In view", 10.0, 600)];
    for i in 0..3 {
        page.push(el(10 + i, Role::Checkbox, "Far box", 9000.0, 510));
        page.push(el(20 + i, Role::Image, "Far picture", 9000.0, -300));
    }
    page.push(el(30, Role::Generic, "Far card", 9000.0, -300));
    // Only the in-view button fits with its closing line.
    let one = estimate_tokens(&element_line(&page[0]));
    let f = format_enough(&page, &enough(one + 60));
    assert_eq!(f.shown, 1, "{}", f.text);
    let last = f.text.lines().last().unwrap_or_default();
    assert!(
        last.starts_with(
            "… 7 more (3 checkboxes, 3 images, 1 generic; 7 below the fold; all: max_tokens "
        ),
        "{last}"
    );
    // An entry's own role (not the contract's) is counted as other.
    let entries: Vec<Entry> = (0..10)
        .map(|i| Entry {
            id: format!("agent-{i}"),
            role: "menuitem".into(),
            element: el(i, Role::Link, "Far", 9000.0, -300),
            hints: vec![],
        })
        .collect();
    let f = format_enough(&entries, &enough(60));
    assert!(
        f.text
            .starts_with("… 10 more (10 other; 10 below the fold; "),
        "{}",
        f.text
    );
}

#[test]
fn a_far_field_comes_with_the_buttons_on_its_row() {
    let mut page = long_page();
    // A car finder far below: a select and its (plain) submit button on
    // one row, and an unrelated button a row lower.
    page.push(el(300, Role::Combobox, "Choose brand", 8000.0, 520));
    let mut find = el(301, Role::Button, "Find my car", 7999.0, 21);
    find.bbox.x = 300.0;
    page.push(find);
    page.push(el(302, Role::Button, "Share", 8030.0, 21));
    let f = format_enough(&page, &enough(2000));
    let ids = listed_ids(&f.text);
    assert!(ids.contains(&300) && ids.contains(&301), "{}", f.text);
    assert!(!ids.contains(&302), "{}", f.text);
}
