//! Headless (or headed) Chromium with the built extension loaded, driven over
//! CDP with chromiumoxide. Shared by `sentience snapshot` and `sentience run`.

use anyhow::{bail, Context, Result};
use chromiumoxide::browser::Browser;
use chromiumoxide::cdp::browser_protocol::target::GetTargetsParams;
use chromiumoxide::Page;
use futures::StreamExt;
use sentience_tool_server::browser::{chromium_config, Launch};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub struct BrowserOptions {
    pub extension_dir: PathBuf,
    pub chromium: PathBuf,
    pub headed: bool,
    pub width: u32,
    pub height: u32,
}

/// The directory that loads as the unpacked extension: the repo root, once
/// `pkg-scripts/build.sh` has produced pkg/. Looked up from `--extension`,
/// `SENTIENCE_EXTENSION`, the current directory and the binary's location.
pub fn find_extension_dir(explicit: Option<&Path>) -> Result<PathBuf> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(p) = explicit {
        candidates.push(p.to_path_buf());
    } else {
        if let Ok(p) = std::env::var("SENTIENCE_EXTENSION") {
            candidates.push(PathBuf::from(p));
        }
        if let Ok(cwd) = std::env::current_dir() {
            candidates.extend(cwd.ancestors().map(Path::to_path_buf));
        }
        if let Ok(exe) = std::env::current_exe() {
            candidates.extend(exe.ancestors().skip(1).map(Path::to_path_buf));
        }
    }
    for dir in &candidates {
        if dir.join("manifest.json").is_file() && dir.join("extension").is_dir() {
            if !dir.join("pkg/sentience_wasm_bg.wasm").is_file() {
                bail!(
                    "the extension at {} is not built yet: run pkg-scripts/build.sh",
                    dir.display()
                );
            }
            return Ok(dir.clone());
        }
    }
    bail!("cannot find the Sentience extension (a directory with manifest.json and extension/); pass --extension DIR or set SENTIENCE_EXTENSION")
}

/// A Chromium of its own (fresh profile in a temporary directory, removed
/// with it), with `extension` loaded and no other, or with extensions off
/// (`sentience browse` drives plain Chromium). The task drains CDP events;
/// unknown events from a newer Chromium are not fatal.
pub async fn launch_chromium(
    chromium: &Path,
    headed: bool,
    (width, height): (u32, u32),
    extension: Option<&Path>,
) -> Result<(Browser, tokio::task::JoinHandle<()>, tempfile::TempDir)> {
    if !chromium.exists() {
        bail!(
            "Chromium not found at {} (install it with pkg-scripts/setup.sh or pass --chromium)",
            chromium.display()
        );
    }
    let profile = tempfile::tempdir().context("creating a browser profile directory")?;
    let mut config = chromium_config(&Launch {
        executable: chromium,
        profile_dir: profile.path(),
        window: (width, height),
        headless: !headed,
        extension,
        request_timeout: Duration::from_secs(60),
    });
    if extension.is_none() {
        config = config.arg("disable-extensions");
    }
    let config = config.build().map_err(anyhow::Error::msg)?;
    let (browser, mut handler) = Browser::launch(config)
        .await
        .context("launching Chromium")?;
    let handler = tokio::spawn(async move { while handler.next().await.is_some() {} });
    Ok((browser, handler, profile))
}

pub struct ExtensionBrowser {
    browser: Browser,
    handler: tokio::task::JoinHandle<()>,
    _profile: tempfile::TempDir,
}

impl ExtensionBrowser {
    pub async fn launch(opts: &BrowserOptions) -> Result<Self> {
        let (browser, handler, profile) = launch_chromium(
            &opts.chromium,
            opts.headed,
            (opts.width, opts.height),
            Some(&opts.extension_dir),
        )
        .await?;
        Ok(ExtensionBrowser {
            browser,
            handler,
            _profile: profile,
        })
    }

    /// Opens `url` and waits until the extension's `window.sentience` exists
    /// (content scripts of a freshly loaded extension can miss the very first
    /// navigation, so it reloads once if needed).
    pub async fn open(&self, url: &str) -> Result<Page> {
        let page = self.new_page(url).await?;
        for attempt in 0..2 {
            for _ in 0..50 {
                let ready: bool = page
                    .evaluate("typeof window.sentience === 'object'")
                    .await
                    .ok()
                    .and_then(|r| r.into_value().ok())
                    .unwrap_or(false);
                if ready {
                    return Ok(page);
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            if attempt == 0 {
                page.reload().await.ok();
                page.wait_for_navigation().await.ok();
            }
        }
        bail!("the extension did not load into {url} (window.sentience is missing)")
    }

    /// The extension's id, read from its service worker's target URL.
    pub async fn extension_id(&self) -> Result<String> {
        for _ in 0..100 {
            let targets = match self.browser.execute(GetTargetsParams::default()).await {
                Ok(r) => r.result.target_infos,
                Err(_) => Vec::new(),
            };
            let id = targets.iter().find_map(|t| {
                let rest = t.url.strip_prefix("chrome-extension://")?;
                let (id, path) = rest.split_once('/')?;
                path.starts_with("extension/service-worker.js")
                    .then(|| id.to_string())
            });
            if let Some(id) = id {
                return Ok(id);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        bail!("the extension's service worker did not start")
    }

    /// Gives page scripts of `origins` the full view of `window.sentience`
    /// (cross-origin frames, screenshots), as the options page's "trusted
    /// origins" does (docs/api.md "Who may see and do what"). The profile is
    /// this launcher's own throwaway one, and the origins are the ones the
    /// user asked it to automate. Call it before opening their pages.
    pub async fn trust_origins(&self, origins: &[String]) -> Result<()> {
        let ext_id = self.extension_id().await?;
        let page = self
            .open_extension_page(&format!(
                "chrome-extension://{ext_id}/extension/options/options.html"
            ))
            .await?;
        let list = serde_json::to_string(origins)?;
        let set = format!("chrome.storage.local.set({{trusted_origins: {list}}}).then(() => true)");
        let done = page
            .evaluate(set.as_str())
            .await
            .context("setting the trusted origins")?;
        let _ = page.close().await;
        if done.into_value::<bool>().ok() != Some(true) {
            bail!("the extension did not store the trusted origins");
        }
        Ok(())
    }

    /// Opens one of the extension's own pages (its messages then carry the
    /// authority of the extension's UI, as the side panel's do).
    pub async fn open_extension_page(&self, url: &str) -> Result<Page> {
        self.new_page(url).await
    }

    /// A new tab on `url`, once its first navigation has settled (a page
    /// that never finishes loading is still returned, for the caller to
    /// judge).
    async fn new_page(&self, url: &str) -> Result<Page> {
        let page = self
            .browser
            .new_page(url)
            .await
            .with_context(|| format!("opening {url}"))?;
        page.wait_for_navigation().await.ok();
        Ok(page)
    }

    /// Evaluates `expr` (awaiting promises) and returns its JSON value.
    pub async fn eval(page: &Page, expr: &str) -> Result<serde_json::Value> {
        let result = page
            .evaluate(expr)
            .await
            .with_context(|| format!("evaluating {expr}"))?;
        Ok(result.into_value().unwrap_or(serde_json::Value::Null))
    }

    pub async fn close(mut self) {
        let _ = self.browser.close().await;
        let _ = self.browser.wait().await;
        self.handler.abort();
    }
}
