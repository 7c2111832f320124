use super::*;
use crate::select::select_candidates;
use crate::test_dom::{el, rgb, PageBuilder};

/// `(node index, is_primary)` for every candidate.
fn primaries(page: &RawPage) -> Vec<(u32, bool)> {
    let c = select_candidates(page);
    let p = primary_flags(page, &c);
    c.iter().zip(p).map(|(c, p)| (c.index, p)).collect()
}

fn primary_indices(page: &RawPage) -> Vec<u32> {
    primaries(page)
        .into_iter()
        .filter(|p| p.1)
        .map(|p| p.0)
        .collect()
}

const BLUE: Rgba = Rgba::new(13, 110, 253, 255);

#[test]
fn clickable() {
    let page = PageBuilder::new(100.0, 100.0)
        .node(el("div").onclick())
        .node(el("img").replaced().alt("x"))
        .node(el("img").replaced().alt("x").pointer())
        .node(el("input").typ("checkbox"))
        .build();
    let n = &page.nodes;
    assert!(is_clickable(&n[0], Role::Generic));
    assert!(!is_clickable(&n[1], Role::Image));
    assert!(is_clickable(&n[2], Role::Image));
    assert!(is_clickable(&n[3], Role::Checkbox));
    assert!(is_clickable(&n[1], Role::Link));
}

#[test]
fn rule_a_filled_saturated_button_is_primary() {
    let page = PageBuilder::new(1280.0, 800.0)
        .node(el("button").text("Sign in").bg(BLUE))
        .node(el("button").text("Cancel").bg(rgb(240, 240, 240)))
        .node(el("button").text("Plain"))
        .node(el("a").href().text("Buy").bg(rgb(40, 167, 69)))
        .node(el("button").text("Off").bg(BLUE).disabled())
        // Pastel: too light.
        .node(el("button").text("Soft").bg(rgb(200, 220, 255)))
        // Half transparent background: not its own fill.
        .node(el("button").text("Ghost").bg(Rgba::new(13, 110, 253, 100)))
        .build();
    assert_eq!(primary_indices(&page), vec![0, 3]);
}

#[test]
fn rule_a_needs_contrast_with_the_parent() {
    // A blue button on a blue bar does not stand out.
    let page = PageBuilder::new(1280.0, 800.0)
        .node(el("nav").bg(BLUE).child(el("button").bg(rgb(20, 115, 250))))
        .node(
            el("div")
                .bg(rgb(255, 255, 255))
                .child(el("button").bg(BLUE)),
        )
        .build();
    assert_eq!(primary_indices(&page), vec![3]);
}

#[test]
fn rule_a_same_colour_everywhere_keeps_only_the_largest() {
    let mut b = PageBuilder::new(1280.0, 800.0);
    for i in 0..5 {
        let w = if i == 2 { 200 } else { 100 };
        b = b.node(el("button").bg(BLUE).rect(0, i * 50, w, 40));
    }
    // A red one is still rare.
    b = b.node(el("button").bg(rgb(220, 53, 69)).rect(0, 300, 50, 40));
    assert_eq!(primary_indices(&b.build()), vec![2, 5]);
    // Exactly three of one colour: all primary.
    let mut b = PageBuilder::new(1280.0, 800.0);
    for i in 0..3 {
        b = b.node(el("button").bg(BLUE).rect(0, i * 50, 100, 40));
    }
    assert_eq!(primary_indices(&b.build()), vec![0, 1, 2]);
}

#[test]
fn rule_b_default_button_of_the_main_form() {
    let page = PageBuilder::new(1280.0, 800.0)
        // 0: newsletter form, one field.
        .nest(el("form"), |f| {
            f.node(el("input").typ("email"))
                .node(el("button").text("Subscribe"))
        })
        // 3: login form, two fields; the first submit button is the default.
        .nest(el("form"), |f| {
            f.node(el("input").typ("text"))
                .node(el("input").typ("password"))
                .node(el("button").typ("button").text("Show password"))
                .node(el("button").text("Log in"))
                .node(el("input").typ("submit").value("Other"))
        })
        .build();
    assert_eq!(primary_indices(&page), vec![7]);
}

#[test]
fn rule_b_ties_pick_the_first_form_and_needs_a_text_field() {
    let page = PageBuilder::new(1280.0, 800.0)
        .nest(el("form"), |f| {
            f.node(el("input")).node(el("input").typ("submit"))
        })
        .nest(el("form"), |f| {
            f.node(el("input")).node(el("input").typ("image").alt("Go"))
        })
        .build();
    assert_eq!(primary_indices(&page), vec![2]);
    // No text control anywhere: no main form.
    let page = PageBuilder::new(1280.0, 800.0)
        .nest(el("form"), |f| {
            f.node(el("input").typ("checkbox")).node(el("button"))
        })
        .build();
    assert_eq!(primary_indices(&page), Vec::<u32>::new());
    // A disabled default button is not primary, and the next one does not
    // take its place (it is not the default button).
    let page = PageBuilder::new(1280.0, 800.0)
        .nest(el("form"), |f| {
            f.node(el("input"))
                .node(el("button").disabled())
                .node(el("button"))
        })
        .build();
    assert_eq!(primary_indices(&page), Vec::<u32>::new());
}

#[test]
fn hsl() {
    assert_eq!(saturation_lightness([255, 255, 255]), (0.0, 1.0));
    let (s, l) = saturation_lightness([255, 0, 0]);
    assert!((s - 1.0).abs() < 1e-9 && (l - 0.5).abs() < 1e-9);
    let (s, _) = saturation_lightness([128, 128, 128]);
    assert_eq!(s, 0.0);
}

/// What `main_form` replaced: sort, then the first longest run.
fn main_form_by_sorting(forms: &[u32]) -> Option<u32> {
    let mut forms = forms.to_vec();
    forms.sort_unstable();
    let mut best: Option<(u32, usize)> = None;
    for run in forms.chunk_by(|a, b| a == b) {
        let Some(&form) = run.first() else { continue };
        if best.is_none_or(|(_, n)| run.len() > n) {
            best = Some((form, run.len()));
        }
    }
    best.map(|(form, _)| form)
}

#[test]
fn main_form_counts_like_sorting() {
    let mut x: u64 = 7;
    for _ in 0..5000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let nodes = (x % 12) as usize;
        let forms: Vec<u32> = (0..(x >> 8) % 9)
            .map(|i| ((x >> (12 + 3 * i)) % 16) as u32)
            .collect();
        let got = main_form(forms.iter().copied(), nodes);
        assert_eq!(got, main_form_by_sorting(&forms), "{forms:?} in {nodes}");
    }
}
