//! Prints the listing an LLM would read for a saved page, with its token
//! estimate: `cargo run -p sentience-browse --example distill -- page.html [budget]`.

use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(file) = args.first() else {
        eprintln!("usage: distill PAGE.html [BUDGET_TOKENS]");
        std::process::exit(2);
    };
    let budget = args
        .get(1)
        .and_then(|b| b.parse().ok())
        .unwrap_or(sentience_browse::distill::DEFAULT_BUDGET_TOKENS);
    let html = match std::fs::read(file) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => {
            eprintln!("{file}: {e}");
            std::process::exit(1);
        }
    };
    let page = sentience_browse::BrowsePage::parse(&html, "");
    let listing = sentience_browse::distill::distill(&page, budget);
    let mut out = std::io::stdout();
    let _ = writeln!(out, "{}", listing.text);
    let _ = writeln!(
        out,
        "-- {} tokens (estimated), {} elements listed, {} dropped for the budget",
        listing.tokens,
        listing.ids.len(),
        listing.dropped_elements
    );
}
