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
mod tests {
    use super::*;

    #[test]
    fn empty_and_null_are_defaults() {
        assert_eq!(
            SnapshotOptions::parse("").unwrap(),
            SnapshotOptions::default()
        );
        assert_eq!(
            SnapshotOptions::parse("null").unwrap(),
            SnapshotOptions::default()
        );
        assert_eq!(
            SnapshotOptions::parse("{}").unwrap(),
            SnapshotOptions::default()
        );
    }

    #[test]
    fn full_options_parse() {
        let o = SnapshotOptions::parse(
            r#"{"limit":5,"filter":{"min_area":10,"allowed_roles":["button","link"],"min_z_index":1,"in_viewport_only":true},"screenshot":{"format":"jpeg","quality":80}}"#,
        )
        .unwrap();
        assert_eq!(o.limit, Some(5));
        let f = o.filter.clone().unwrap();
        assert_eq!(f.allowed_roles, Some(vec![Role::Button, Role::Link]));
        assert_eq!(o.screenshot_spec().unwrap().format, ImageFormat::Jpeg);
    }

    #[test]
    fn bad_options_are_errors() {
        for bad in [
            r#"{"limt":5}"#,
            r#"{"limit":-1}"#,
            r#"{"limit":"5"}"#,
            r#"{"filter":{"allowed_roles":["heading"]}}"#,
            r#"{"filter":{"min_area":-3}}"#,
            r#"{"screenshot":{"format":"gif"}}"#,
            r#"{"screenshot":{"quality":101}}"#,
            r#"[1,2]"#,
            r#"{"diff":1}"#,
            r#"{"diff":false,"since":3}"#,
            r#"{"since":-1}"#,
            r#"{"since":"3"}"#,
            r#"{"since":0}"#,
            r#"{"wait_for_stable":"yes"}"#,
            r#"{"wait_for_stable":{"quiet":5}}"#,
            r#"{"wait_for_stable":{"timeout_ms":30001}}"#,
            r#"{"wait_for_stable":{"quiet_ms":0}}"#,
            r#"{"wait_for_stable":{"quiet_ms":500,"timeout_ms":100}}"#,
            r#"{"frames":"yes"}"#,
            r#"{"frames":{"timeout":5}}"#,
            r#"{"frames":{"timeout_ms":0}}"#,
            r#"{"frames":{"timeout_ms":10001}}"#,
            r#"{"frames":{"timeout_ms":1.5}}"#,
        ] {
            let err = SnapshotOptions::parse(bad).unwrap_err();
            assert!(err.starts_with("invalid snapshot options"), "{bad}: {err}");
        }
    }

    #[test]
    fn screenshot_annotate_parses() {
        let o = SnapshotOptions::parse(
            r#"{"screenshot":{"format":"jpeg","quality":60,"annotate":true}}"#,
        )
        .unwrap();
        let spec = o.screenshot_spec().unwrap();
        assert_eq!(spec.annotate, Some(true));
        assert_eq!(spec.format, ImageFormat::Jpeg);
        let o = SnapshotOptions::parse(r#"{"screenshot":{"annotate":false}}"#).unwrap();
        assert_eq!(o.screenshot_spec().unwrap().annotate, Some(false));
        let o = SnapshotOptions::parse(r#"{"screenshot":["png",null,true]}"#).unwrap();
        assert_eq!(o.screenshot_spec().unwrap().annotate, Some(true));
    }

    #[test]
    fn bad_annotate_says_what_fits() {
        for bad in [
            r#"{"screenshot":{"annotate":"yes"}}"#,
            r#"{"screenshot":{"annotate":1}}"#,
            r#"{"screenshot":{"anotate":true}}"#,
        ] {
            let err = SnapshotOptions::parse(bad).unwrap_err();
            assert!(
                err.starts_with("invalid snapshot options: "),
                "{bad}: {err}"
            );
            assert!(err.ends_with("annotate?: true|false})"), "{bad}: {err}");
        }
    }

    #[test]
    fn diff_and_stability_options() {
        let o = SnapshotOptions::parse(r#"{"diff":true}"#).unwrap();
        assert!(o.wants_diff());
        let o = SnapshotOptions::parse(r#"{"since":7}"#).unwrap();
        assert!(o.wants_diff());
        assert_eq!(o.since, Some(7));
        assert!(!SnapshotOptions::parse(r#"{"diff":false}"#)
            .unwrap()
            .wants_diff());
        let timing = |json: &str| SnapshotOptions::parse(json).unwrap().stable_timing();
        assert_eq!(timing(r#"{"wait_for_stable":true}"#), Some((200, 3000)));
        assert_eq!(timing(r#"{"wait_for_stable":false}"#), None);
        assert_eq!(timing(r#"{"wait_for_stable":{}}"#), Some((200, 3000)));
        assert_eq!(
            timing(r#"{"wait_for_stable":{"quiet_ms":50,"timeout_ms":800}}"#),
            Some((50, 800))
        );
        // The default quiet period (200 ms) cannot exceed a shorter cap.
        assert!(SnapshotOptions::parse(r#"{"wait_for_stable":{"timeout_ms":100}}"#).is_err());
    }

    #[test]
    fn frames_option() {
        let timeout = |json: &str| SnapshotOptions::parse(json).unwrap().frames_timeout();
        assert_eq!(timeout("{}"), Some(1000));
        assert_eq!(timeout(r#"{"frames":true}"#), Some(1000));
        assert_eq!(timeout(r#"{"frames":null}"#), Some(1000));
        assert_eq!(timeout(r#"{"frames":false}"#), None);
        assert_eq!(timeout(r#"{"frames":{}}"#), Some(1000));
        assert_eq!(timeout(r#"{"frames":{"timeout_ms":250}}"#), Some(250));
        assert_eq!(timeout(r#"{"frames":{"timeout_ms":10000}}"#), Some(10000));
    }

    #[test]
    fn screenshot_true_is_png() {
        let o = SnapshotOptions::parse(r#"{"screenshot":true}"#).unwrap();
        assert_eq!(o.screenshot_spec().unwrap().format, ImageFormat::Png);
        let o = SnapshotOptions::parse(r#"{"screenshot":false}"#).unwrap();
        assert!(o.screenshot_spec().is_none());
    }
}
