//! The bridge's iframe coverage report (extension/content/frames.js
//! `collectAll`, docs/contracts/snapshot.md §11.4), read into the model so
//! the engine writes it with the rest of the answer. Its wire form, like
//! `S_OPTIONS` ([`crate::raw`]): one record per frame, records joined by
//! [`OPT_SEP`], fields by [`OPT_FIELD`]; a record is [`REPORT_INCLUDED`],
//! url, depth, via, or [`REPORT_SKIPPED`], url, reason. URLs never hold the
//! separators (C0 controls are percent-encoded in URLs; the bridge strips
//! them anyway). Whether frames were gathered at all is the tracking
//! column `T_FRAMES`: an empty report then means "no frames".
//!
//! Not JSON: reading JSON here cost the engine's WebAssembly kilobytes
//! (the size budget, pkg-scripts/build.sh) for what separators say.

use crate::contract::{FrameCoverage, IncludedFrame, SkippedFrame};
use crate::raw::{OPT_FIELD, OPT_SEP, REPORT_INCLUDED, REPORT_SKIPPED};

/// Reads the report; a malformed one is an error, never a guess.
pub fn decode_report(text: &str) -> Result<FrameCoverage, String> {
    let mut report = FrameCoverage::default();
    for record in text.split(OPT_SEP).filter(|r| !r.is_empty()) {
        let mut f = record.split(OPT_FIELD);
        let kind = f.next().unwrap_or_default().as_bytes();
        let (url, a, b, rest) = (f.next(), f.next(), f.next(), f.next());
        match (kind, url, a, b, rest) {
            (&[k], Some(url), Some(depth), Some(via), None) if k == REPORT_INCLUDED as u8 => {
                report.included.push(IncludedFrame {
                    url: url.to_string(),
                    depth: digits(depth).ok_or_else(bad_report)?,
                    via: via.to_string(),
                })
            }
            (&[k], Some(url), Some(reason), None, None) if k == REPORT_SKIPPED as u8 => {
                report.skipped.push(SkippedFrame {
                    url: url.to_string(),
                    reason: reason.to_string(),
                })
            }
            _ => return Err(bad_report()),
        }
    }
    Ok(report)
}

/// A depth: decimal digits only (not `str::parse`, whose generic number
/// parsing the engine does not otherwise carry).
fn digits(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 9 {
        return None;
    }
    s.bytes().try_fold(0u32, |n, b| {
        b.is_ascii_digit().then(|| n * 10 + u32::from(b - b'0'))
    })
}

/// (The bridge and this file disagree: a bug of ours, never the page's.)
fn bad_report() -> String {
    "invalid frames report".into()
}

#[cfg(test)]
mod tests;
