//! `snapshot(options)` as the page passes it (docs/contracts/snapshot.md
//! §11.6). Parsed strictly: an unknown key or a wrong type is an error the page
//! sees as `{status: "error", error}`, never a silent default.
//!
//! [`SnapshotOptions::parse`] reads the JSON with `json/options.rs`, which
//! accepts exactly what `serde_json::from_str` with serde's derives on these
//! types accepts, with the same values and messages of its own, at a
//! fraction of the WebAssembly size (see docs/architecture.md "Where each contract lives"). The derives
//! exist in test builds only, as the reference `json/options/tests.rs`
//! compares the reader against.

use crate::contract::Role;

#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(test, derive(serde::Deserialize), serde(deny_unknown_fields))]
pub struct SnapshotOptions {
    /// Keep only the N most important elements.
    pub limit: Option<u32>,
    pub filter: Option<Filter>,
    /// Captured by the service worker; the engine only validates it.
    pub screenshot: Option<ScreenshotOption>,
    /// Addition: report what changed since the previous snapshot of the page.
    pub diff: Option<bool>,
    /// Addition: report what changed since this earlier snapshot (implies `diff`).
    pub since: Option<u32>,
    /// Addition: wait until the DOM is quiet first (done by the bridge; the
    /// engine validates it and reports the wait in `meta.stability`).
    pub wait_for_stable: Option<StableOption>,
    /// Addition to docs/contracts/snapshot.md §11.4: iframes (gathered by
    /// the bridge, extension/content/frames.js; the engine validates the
    /// option and writes the bridge's coverage report as `frames`).
    pub frames: Option<FramesOption>,
}

/// `frames: true | false | {timeout_ms?}`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(test, derive(serde::Deserialize), serde(untagged))]
pub enum FramesOption {
    Enabled(bool),
    Timing(FramesSpec),
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(test, derive(serde::Deserialize), serde(deny_unknown_fields))]
pub struct FramesSpec {
    /// How long each frame has to answer (default [`FRAME_TIMEOUT_MS`], at
    /// most [`FRAME_MAX_TIMEOUT_MS`]).
    pub timeout_ms: Option<u32>,
}

/// Per frame, by default: a live frame answers within milliseconds; one
/// that has not after a second is loading or stuck.
pub const FRAME_TIMEOUT_MS: u32 = 1000;
/// The per-frame timeout a caller may ask for; the whole frame phase ends
/// after three of them (extension/protocol.js `FRAMES.PHASE_TIMEOUTS`).
pub const FRAME_MAX_TIMEOUT_MS: u32 = 10_000;

/// `wait_for_stable: true | false | {quiet_ms?, timeout_ms?}`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(test, derive(serde::Deserialize), serde(untagged))]
pub enum StableOption {
    Enabled(bool),
    Timing(StableSpec),
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(test, derive(serde::Deserialize), serde(deny_unknown_fields))]
pub struct StableSpec {
    /// The DOM must have had no mutation for this long (default [`QUIET_MS`]).
    pub quiet_ms: Option<u32>,
    /// Give up waiting after this long (default [`TIMEOUT_MS`], at most [`MAX_TIMEOUT_MS`]).
    pub timeout_ms: Option<u32>,
}

/// Default quiet period: long enough to span a render frame plus a
/// microtask-chained fetch-and-render, short enough not to slow agents.
pub const QUIET_MS: u32 = 200;
/// Default cap on the wait: a page still mutating after it is captured as is.
pub const TIMEOUT_MS: u32 = 3000;
/// The cap a page may ask for (well inside the facade's 60 s call timeout).
pub const MAX_TIMEOUT_MS: u32 = 30_000;

#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(test, derive(serde::Deserialize), serde(deny_unknown_fields))]
pub struct Filter {
    /// Minimum `bbox.width * bbox.height`, CSS px².
    pub min_area: Option<f64>,
    pub allowed_roles: Option<Vec<Role>>,
    pub min_z_index: Option<i32>,
    pub in_viewport_only: Option<bool>,
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(test, derive(serde::Deserialize), serde(untagged))]
pub enum ScreenshotOption {
    Enabled(bool),
    Format(ScreenshotSpec),
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(test, derive(serde::Deserialize), serde(deny_unknown_fields))]
pub struct ScreenshotSpec {
    #[cfg_attr(test, serde(default))]
    pub format: ImageFormat,
    /// JPEG quality 0..=100 (ignored for PNG).
    pub quality: Option<u8>,
    /// Addition to docs/contracts/snapshot.md §11.6: draw the snapshot's numbered element boxes on
    /// the screenshot (set-of-mark), as `window.sentience.showOverlay` does
    /// on the page. Drawn by the service worker; the engine only validates.
    /// `default` keeps the two-element sequence form `[format, quality]`.
    #[cfg_attr(test, serde(default))]
    pub annotate: Option<bool>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(test, derive(serde::Deserialize), serde(rename_all = "lowercase"))]
pub enum ImageFormat {
    #[default]
    Png,
    Jpeg,
}

impl ImageFormat {
    /// As `screenshot_format` spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            ImageFormat::Png => "png",
            ImageFormat::Jpeg => "jpeg",
        }
    }
}

impl SnapshotOptions {
    /// Parses the JSON text of the page's options (`undefined`/`null` → defaults).
    pub fn parse(json: &str) -> Result<SnapshotOptions, String> {
        let json = json.trim();
        if json.is_empty() || json == "null" {
            return Ok(SnapshotOptions::default());
        }
        let opts = crate::json::options::parse_options(json)
            .map_err(|e| format!("invalid snapshot options: {e}"))?;
        opts.validate()?;
        Ok(opts)
    }

    fn validate(&self) -> Result<(), String> {
        if let Some(f) = &self.filter {
            if let Some(a) = f.min_area {
                if !a.is_finite() || a < 0.0 {
                    return Err(
                        "invalid snapshot options: filter.min_area must be a finite number >= 0"
                            .into(),
                    );
                }
            }
        }
        if let Some(ScreenshotOption::Format(s)) = &self.screenshot {
            if s.quality.is_some_and(|q| q > 100) {
                return Err("invalid snapshot options: screenshot.quality must be 0..100".into());
            }
        }
        if self.since == Some(0) {
            return Err("invalid snapshot options: since must be a snapshot_id (1 or more)".into());
        }
        if self.diff == Some(false) && self.since.is_some() {
            return Err(
                "invalid snapshot options: since asks for a diff, so diff cannot be false".into(),
            );
        }
        if let Some(FramesOption::Timing(FramesSpec {
            timeout_ms: Some(t),
        })) = self.frames
        {
            if t == 0 || t > FRAME_MAX_TIMEOUT_MS {
                return Err(format!(
                    "invalid snapshot options: `frames.timeout_ms` must be an integer from 1 to {FRAME_MAX_TIMEOUT_MS}"
                ));
            }
        }
        if let Some((quiet, timeout)) = self.stable_timing() {
            if timeout > MAX_TIMEOUT_MS {
                return Err(format!(
                    "invalid snapshot options: wait_for_stable.timeout_ms must be at most {MAX_TIMEOUT_MS}"
                ));
            }
            if quiet == 0 || quiet > timeout {
                return Err(
                    "invalid snapshot options: wait_for_stable.quiet_ms must be 1..timeout_ms"
                        .into(),
                );
            }
        }
        Ok(())
    }

    /// Whether a diff was asked for (`diff: true` or a `since`).
    pub fn wants_diff(&self) -> bool {
        self.diff == Some(true) || self.since.is_some()
    }

    /// `(quiet_ms, timeout_ms)` with the defaults filled in, when the page
    /// asked to wait for stability.
    pub fn stable_timing(&self) -> Option<(u32, u32)> {
        match &self.wait_for_stable {
            None | Some(StableOption::Enabled(false)) => None,
            Some(StableOption::Enabled(true)) => Some((QUIET_MS, TIMEOUT_MS)),
            Some(StableOption::Timing(t)) => Some((
                t.quiet_ms.unwrap_or(QUIET_MS),
                t.timeout_ms.unwrap_or(TIMEOUT_MS),
            )),
        }
    }

    /// The per-frame timeout when frames are to be gathered (the default
    /// filled in), `None` for `frames: false`.
    pub fn frames_timeout(&self) -> Option<u32> {
        match &self.frames {
            Some(FramesOption::Enabled(false)) => None,
            None | Some(FramesOption::Enabled(true)) => Some(FRAME_TIMEOUT_MS),
            Some(FramesOption::Timing(t)) => Some(t.timeout_ms.unwrap_or(FRAME_TIMEOUT_MS)),
        }
    }

    /// The screenshot the service worker should capture, if any.
    pub fn screenshot_spec(&self) -> Option<ScreenshotSpec> {
        match &self.screenshot {
            None | Some(ScreenshotOption::Enabled(false)) => None,
            Some(ScreenshotOption::Enabled(true)) => Some(ScreenshotSpec {
                format: ImageFormat::Png,
                quality: None,
                annotate: None,
            }),
            Some(ScreenshotOption::Format(s)) => Some(s.clone()),
        }
    }
}

#[cfg(test)]
mod tests;
