//! `sentience browse-candidates FILE.html…`: for each file, every element the
//! browse policies could choose and the selector the server would send for
//! it (crates/browse `BrowsePage::candidates`, each verified with the
//! server's parser), plus the element's index among all elements in document
//! order, so that a browser can check the selector names exactly that element
//! (tests/lib/browse-selectors.mjs; docs/browse.md). JSON on stdout.

use anyhow::{Context, Result};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// HTML files to read (each is parsed as the server parses a `task`'s html).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

fn one(file: &PathBuf) -> Result<Value> {
    let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    let html = String::from_utf8_lossy(&bytes);
    let page = sentience_browse::BrowsePage::parse(&html, "");
    // document.querySelectorAll('*') order: the root element, then every
    // element below it in tree order.
    let order: HashMap<_, usize> = page
        .html
        .root_element()
        .descendent_elements()
        .enumerate()
        .map(|(i, e)| (e.id(), i))
        .collect();
    let elements: Vec<Value> = page
        .candidates(true)
        .into_iter()
        .map(|c| {
            let dom_index = page
                .find(c.id)
                .and_then(|e| page.node_of(e))
                .and_then(|n| order.get(&n))
                .copied();
            json!({
                "id": c.id,
                "role": c.role,
                "tag": c.tag,
                "text": c.text,
                "selector": c.selector,
                "verified": c.verified,
                "domIndex": dom_index,
            })
        })
        .collect();
    Ok(json!({"file": file.display().to_string(), "elements": elements}))
}

pub fn run(args: Args) -> Result<()> {
    let out = args.files.iter().map(one).collect::<Result<Vec<_>>>()?;
    println!("{}", Value::Array(out));
    Ok(())
}
