//! `sentience snapshot [URL]`: the snapshot of a page (the bundled demo page
//! when no URL is given) taken in Chromium with the extension loaded, printed
//! as the contract's JSON; `--query` keeps the matching elements (query
//! language of crates/snapshot-query) and `--format` prints the compact LLM
//! listing instead of JSON.

use crate::browser::{find_extension_dir, ExtensionBrowser};
use crate::startup;
use anyhow::{anyhow, bail, Context, Result};
use sentience_snapshot_query::{format_elements, Query, Snapshot, DEFAULT_MAX_TOKENS};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct SnapshotArgs {
    /// Page to snapshot (default: the bundled demo store's home page).
    pub url: Option<String>,
    /// Keep only the N most important elements.
    #[arg(long)]
    pub limit: Option<u32>,
    /// Full snapshot options as JSON, e.g. '{"filter":{"in_viewport_only":true}}'.
    #[arg(long, conflicts_with = "limit")]
    pub options: Option<String>,
    /// Show the browser window instead of running headless.
    #[arg(long)]
    pub headed: bool,
    /// The unpacked extension directory (default: found from the current directory).
    #[arg(long)]
    pub extension: Option<PathBuf>,
    #[arg(long, env = "CHROMIUM", default_value = "/usr/bin/chromium")]
    pub chromium: PathBuf,
    /// Compact one-line JSON instead of pretty-printed.
    #[arg(long)]
    pub compact: bool,
    /// Keep the elements matching this query, e.g. "role=button text~'sign in'"
    /// (printed as a JSON array, most important first).
    #[arg(long)]
    pub query: Option<String>,
    /// Print the compact LLM listing (one element a line) instead of JSON.
    #[arg(long)]
    pub format: bool,
    /// Token budget of --format.
    #[arg(long, requires = "format", default_value_t = DEFAULT_MAX_TOKENS)]
    pub max_tokens: usize,
}

pub async fn run(args: SnapshotArgs) -> Result<()> {
    let options = match (&args.options, args.limit) {
        (Some(json), _) => serde_json::from_str::<serde_json::Value>(json)
            .context("--options is not valid JSON")?,
        (None, Some(limit)) => serde_json::json!({ "limit": limit }),
        (None, None) => serde_json::Value::Null,
    };
    // A bad query fails before any browser starts.
    let query = match &args.query {
        Some(q) => Some(Query::parse(q).map_err(|e| anyhow!("invalid --query: {e}"))?),
        None => None,
    };
    // A missing extension fails before anything starts.
    find_extension_dir(args.extension.as_deref())?;
    // The demo site lives as long as `start`: until the snapshot is taken.
    let start = startup::start_page(args.url.as_deref()).await?;
    let url = start.url.clone();
    eprintln!("sentience: snapshot of {url}");
    let browser =
        startup::extension_browser(args.extension.as_deref(), &args.chromium, args.headed).await?;
    let result = async {
        // The user asked for this page's snapshot: its frames of other
        // origins and screenshots included (a page script of that origin
        // would get only what the same-origin policy gives it).
        if let Ok(parsed) = reqwest::Url::parse(&url) {
            let origin = parsed.origin().ascii_serialization();
            if origin != "null" {
                browser.trust_origins(&[origin]).await?;
            }
        }
        let page = browser.open(&url).await?;
        let expr = format!("window.sentience.snapshot({options})");
        ExtensionBrowser::eval(&page, &expr).await
    }
    .await;
    browser.close().await;
    let snap = result?;
    if (query.is_some() || args.format)
        && snap.get("status").and_then(|s| s.as_str()) == Some("success")
    {
        return print_selection(&snap, query.as_ref(), &args);
    }
    let text = if args.compact {
        serde_json::to_string(&snap)?
    } else {
        serde_json::to_string_pretty(&snap)?
    };
    println!("{text}");
    if snap.get("status").and_then(|s| s.as_str()) != Some("success") {
        bail!(
            "the snapshot failed: {}",
            snap.get("error").unwrap_or(&snap)
        );
    }
    Ok(())
}

/// `--query` and/or `--format`: the matching elements as JSON (the snapshot's
/// own objects), or the LLM listing of the matches (all elements without a
/// query).
fn print_selection(
    snap: &serde_json::Value,
    query: Option<&Query>,
    args: &SnapshotArgs,
) -> Result<()> {
    let typed = Snapshot::from_value(snap).map_err(|e| anyhow!(e))?;
    let chosen: Vec<usize> = match query {
        Some(q) => q.run(&typed.elements),
        None => (0..typed.elements.len()).collect(),
    };
    if args.format {
        let elements: Vec<_> = chosen.iter().map(|&i| typed.elements[i].clone()).collect();
        print!("{}", format_elements(&elements, args.max_tokens).text);
        return Ok(());
    }
    let raw = snap
        .get("elements")
        .and_then(|e| e.as_array())
        .context("the snapshot has no elements array")?;
    let matches: Vec<&serde_json::Value> = chosen.iter().filter_map(|&i| raw.get(i)).collect();
    let text = if args.compact {
        serde_json::to_string(&matches)?
    } else {
        serde_json::to_string_pretty(&matches)?
    };
    println!("{text}");
    Ok(())
}
