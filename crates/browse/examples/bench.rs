//! Server time per browse answer on generated pages of about 1k and 10k
//! elements (docs/contracts/browse.md §9): the built-in policy's whole step
//! (HTML parse, snapshot engine, planner, selector written and verified),
//! the LLM policy's listing (parse + distill), and the candidates list.
//! `cargo run --release -p sentience-browse --example bench [-- RUNS]`

use sentience_browse::{builtin_step, distill, BrowsePage, Conversation};
use std::io::Write;
use std::time::Instant;

/// A page of `cards` product cards (7 elements each) and a login form.
fn page(cards: usize) -> String {
    let mut h = String::from(
        "<!doctype html><html><head><title>Shop</title></head><body><main id=\"main\">",
    );
    for i in 0..cards {
        h.push_str(&format!(
            "<div class=\"card\"><h3>Product {i}</h3><p>Fine thing <span>number {i}</span></p>\
             <a href=\"/item/{i}\">Details</a><button type=\"button\">Add to cart</button></div>"
        ));
    }
    h.push_str(
        "<form id=\"login\"><label for=\"u\">Username</label><input id=\"u\" name=\"username\">\
        <label for=\"p\">Password</label><input id=\"p\" type=\"password\" name=\"password\">\
        <button type=\"submit\">Sign in</button></form></main></body></html>",
    );
    h
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn time(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut t = Vec::with_capacity(runs);
    for _ in 0..runs {
        let s = Instant::now();
        f();
        t.push(s.elapsed().as_secs_f64() * 1000.0);
    }
    median(t)
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|r| r.parse().ok())
        .unwrap_or(11);
    let mut out = std::io::stdout();
    let _ = writeln!(out, "| page | elements | html KB | built-in answer ms | LLM listing ms | all candidates (verified) ms |");
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    for cards in [165, 1665] {
        let html = page(cards);
        let elements = html.matches('<').count() - html.matches("</").count() - 1;
        let answer = time(runs, || {
            let mut conv = Conversation::new("Log in as \"alice\" with password \"pw\"", None);
            let a = builtin_step(&mut conv, &html, None);
            assert_eq!(a.selector.as_deref(), Some("#u"));
        });
        let listing = time(runs, || {
            let p = BrowsePage::parse(&html, "");
            let _ = distill(&p, 6000);
        });
        let candidates = time(runs.min(3), || {
            let _ = sentience_browse::selector_candidates(&html);
        });
        let _ = writeln!(
            out,
            "| {cards} cards | {elements} | {} | {answer:.1} | {listing:.1} | {candidates:.0} |",
            html.len() / 1024
        );
    }
}
