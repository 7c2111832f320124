//! Prints, as JSON, every (element, selector) pair the browse policies could
//! choose on a saved page, each selector already checked with the server's
//! parser (docs/contracts/browse.md §4). The browser-side check runs each
//! selector through Chromium's `querySelectorAll` on the same HTML.
//!
//! `cargo run --release -p sentience-browse --example candidates -- page.html [more.html …]`
//! prints `[{"file": …, "candidates": [{id, role, tag, text, selector, verified}, …]}, …]`.

use std::io::Write;

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        eprintln!("usage: candidates PAGE.html [PAGE.html …]");
        std::process::exit(2);
    }
    let mut out = Vec::new();
    for f in files {
        let html = match std::fs::read(&f) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => {
                eprintln!("{f}: {e}");
                std::process::exit(1);
            }
        };
        let candidates = sentience_browse::selector_candidates(&html);
        out.push(serde_json::json!({ "file": f, "candidates": candidates }));
    }
    let text = serde_json::to_string(&out).unwrap_or_else(|_| "[]".into());
    let _ = writeln!(std::io::stdout(), "{text}");
}
