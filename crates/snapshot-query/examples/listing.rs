//! The MCP server's `browser_snapshot` listing of saved snapshots, for
//! tests/bench/mcp-listing.mjs: `listing BUDGET MODE FILE…` prints a JSON
//! array of the listings, one per file. MODE `enough` is the MCP's rule
//! (`ListingRule::enough`), `budget` the plain `format_elements`.

use sentience_snapshot_query::{format_elements, format_enough, Enough, Snapshot};

/// The MCP server's closing-line advice (crates/mcp/src/listing.rs `MORE_HINT`).
const HINT: &str = "browser_find {query}, or browser_scroll";

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [budget, mode, files @ ..] = args.as_slice() else {
        return Err("usage: listing BUDGET enough|budget FILE…".into());
    };
    let budget: usize = budget.parse().map_err(|e| format!("budget: {e}"))?;
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        let snap = Snapshot::from_json(&text).map_err(|e| format!("{f}: {e}"))?;
        let listing = match mode.as_str() {
            "budget" => format_elements(&snap.elements, budget).text,
            "enough" => {
                format_enough(
                    &snap.elements,
                    &Enough {
                        max_tokens: budget,
                        viewport_height: snap.viewport.height,
                        more_hint: HINT,
                    },
                )
                .text
            }
            other => return Err(format!("unknown mode {other}")),
        };
        out.push(serde_json::Value::String(listing));
    }
    println!("{}", serde_json::Value::Array(out));
    Ok(())
}
