//! `sentience snapshot [URL]`: the snapshot of a page (the bundled demo page
//! when no URL is given) taken in Chromium with the extension loaded, printed
//! as the contract's JSON.

use crate::browser::{find_extension_dir, BrowserOptions, ExtensionBrowser};
use crate::demo_site;
use anyhow::{bail, Context, Result};
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
}

pub async fn run(args: SnapshotArgs) -> Result<()> {
    let options = match (&args.options, args.limit) {
        (Some(json), _) => serde_json::from_str::<serde_json::Value>(json)
            .context("--options is not valid JSON")?,
        (None, Some(limit)) => serde_json::json!({ "limit": limit }),
        (None, None) => serde_json::Value::Null,
    };
    let extension_dir = find_extension_dir(args.extension.as_deref())?;
    // The demo site lives as long as `_demo`: until the snapshot is taken.
    let (url, _demo) = match &args.url {
        Some(u) => (u.clone(), None),
        None => {
            let demo = demo_site::start().await?;
            (format!("{}/index.html", demo.base_url), Some(demo))
        }
    };
    eprintln!("sentience: snapshot of {url}");
    let browser = ExtensionBrowser::launch(&BrowserOptions {
        extension_dir,
        chromium: args.chromium.clone(),
        headed: args.headed,
        width: 1280,
        height: 800,
    })
    .await?;
    let result = async {
        let page = browser.open(&url).await?;
        let expr = format!("window.sentience.snapshot({options})");
        ExtensionBrowser::eval(&page, &expr).await
    }
    .await;
    browser.close().await;
    let snap = result?;
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
