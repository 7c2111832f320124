//! What every Chromium we launch shares, the tool server's sessions and
//! the CLI's (`sentience snapshot`/`run`/`browse`, crates/cli/src/browser.rs):
//! our own switches instead of chromiumoxide's defaults, no sandbox (it
//! needs privileges containers lack), no background traffic or first-run
//! UI, and the window at the viewport's size.

use chromiumoxide::browser::BrowserConfigBuilder;
use chromiumoxide::BrowserConfig;
use std::path::Path;
use std::time::Duration;

/// Switches every launch passes (without the leading `--`).
const QUIET: [&str; 7] = [
    "disable-gpu",
    "disable-quic",
    "disable-background-networking",
    "disable-component-update",
    "disable-sync",
    "no-first-run",
    "disable-dev-shm-usage",
];

/// What differs between launches.
pub struct Launch<'a> {
    pub executable: &'a Path,
    pub profile_dir: &'a Path,
    pub window: (u32, u32),
    pub headless: bool,
    /// Our extension, loaded alone (`disable-extensions-except`).
    pub extension: Option<&'a Path>,
    pub request_timeout: Duration,
}

/// The shared configuration; callers add their own switches before `build`.
pub fn chromium_config(l: &Launch) -> BrowserConfigBuilder {
    let (width, height) = l.window;
    let mut config = BrowserConfig::builder()
        .chrome_executable(l.executable)
        .user_data_dir(l.profile_dir)
        .disable_default_args()
        .no_sandbox()
        .window_size(width, height)
        .viewport(None)
        .launch_timeout(Duration::from_secs(30))
        .request_timeout(l.request_timeout)
        .args(QUIET);
    if let Some(dir) = l.extension {
        let ext = dir.display().to_string();
        config = config
            .extension(ext.clone())
            .arg(("disable-extensions-except", ext.as_str()));
    }
    if l.headless {
        config.new_headless_mode()
    } else {
        config.with_head()
    }
}
