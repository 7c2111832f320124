//! `browser_take_screenshot`: the viewport or one element, JPEG or PNG,
//! optionally annotated with the snapshot's ids (the extension's overlay,
//! drawn in the page and captured with it), never over a byte cap: JPEG
//! quality goes down first, then the image is shrunk until it fits
//! (docs/mcp.md "Screenshots"). Multi-megabyte base64 answers break hosts.

use super::params::{ImageType, ScreenshotParams};
use crate::error::{McpError, McpResult};
use crate::page::Take;
use crate::server::{Reply, SentienceMcp};
use base64::Engine;
use image::RgbaImage;
use sentience_tool_server::geometry::Size;
use sentience_tool_server::imaging::{encode, resize, Encoding, Format};
use serde_json::json;
use std::time::Duration;

/// `max_bytes` when not given.
pub const DEFAULT_MAX_BYTES: usize = 200_000;
/// The smallest cap honoured (a thumbnail still fits).
const MIN_MAX_BYTES: usize = 4_000;

/// An encoded image within `max_bytes`, and how it was made.
pub struct Fitted {
    pub bytes: Vec<u8>,
    pub size: Size,
    pub quality: Option<u8>,
}

/// Encodes `img` as asked, lowering JPEG quality and then the size until
/// the bytes fit in `max_bytes`.
pub fn fit(img: &RgbaImage, kind: ImageType, max_bytes: usize) -> McpResult<Fitted> {
    let max_bytes = max_bytes.max(MIN_MAX_BYTES);
    let mut current = img.clone();
    let mut quality: u8 = 80;
    for _ in 0..12 {
        let enc = match kind {
            ImageType::Png => Encoding {
                format: Format::Png,
                quality: 100,
            },
            ImageType::Jpeg => Encoding {
                format: Format::Jpeg,
                quality,
            },
        };
        let bytes = encode(&current, enc)?;
        let size = Size {
            width: current.width(),
            height: current.height(),
        };
        if bytes.len() <= max_bytes || (size.width <= 16 && size.height <= 16) {
            return Ok(Fitted {
                bytes,
                size,
                quality: (kind == ImageType::Jpeg).then_some(quality),
            });
        }
        if kind == ImageType::Jpeg && quality > 50 {
            quality -= 15;
            continue;
        }
        // Bytes grow about with the area: shrink both sides by the square
        // root of the excess, a little more to land under the cap.
        let ratio = ((max_bytes as f64 / bytes.len() as f64).sqrt() * 0.92).clamp(0.1, 0.95);
        let w = ((f64::from(size.width) * ratio).round() as u32).max(16);
        let h = ((f64::from(size.height) * ratio).round() as u32).max(16);
        current = resize(
            &current,
            Size {
                width: w,
                height: h,
            },
        );
    }
    Err(McpError::Browser(format!(
        "could not bring the screenshot under {max_bytes} bytes"
    )))
}

impl SentienceMcp {
    pub(crate) async fn screenshot(&self, p: ScreenshotParams) -> McpResult<Reply> {
        let tab = self.tab().await?;
        let element = p.target.optional()?;
        let annotate = p.annotate == Some(true);
        let kind = p.image_type.unwrap_or_default();
        let max_bytes = p.max_bytes.map_or(DEFAULT_MAX_BYTES, |n| n as usize);
        // The element in view, and its box in the viewport now.
        let mut clip = None;
        if let Some(id) = element {
            self.element(tab, id).await?;
            let view = self.shared.views.get(tab).await;
            let engine_id = id.saturating_sub(view.base());
            let r = self
                .backend()
                .call(tab, "scroll", json!({"id": engine_id, "doc": view.doc()}))
                .await?;
            if r.get("success").and_then(serde_json::Value::as_bool) != Some(true) {
                return Err(McpError::StaleId(format!(
                    "Element {id} cannot be shown: {}. Take a new snapshot (browser_snapshot).",
                    r.get("error")
                        .and_then(serde_json::Value::as_str)
                        .unwrap_or("unknown")
                )));
            }
        }
        let need_snapshot = element.is_some() || annotate;
        let snap = if need_snapshot {
            let (_, snap) = self.look(tab, &Take::default()).await?;
            self.remember(tab, snap.clone(), false).await;
            Some(snap)
        } else {
            None
        };
        if let (Some(id), Some(s)) = (element, &snap) {
            let e = s.element(id).ok_or_else(|| {
                McpError::StaleId(format!("Element {id} is no longer on the page. Take a new snapshot (browser_snapshot)."))
            })?;
            clip = Some(e.bbox);
        }
        if let Some(s) = &snap {
            if annotate {
                let ids: Vec<u32> = s
                    .snapshot
                    .elements
                    .iter()
                    .filter(|e| e.in_viewport)
                    .map(|e| s.engine_id(e.id))
                    .collect();
                self.backend()
                    .call(tab, "show_overlay", json!({"ids": ids}))
                    .await?;
                // Let the overlay paint before the capture.
                tokio::time::sleep(Duration::from_millis(60)).await;
            }
        }
        let captured = self.backend().screenshot(tab).await;
        if annotate {
            let _ = self.backend().call(tab, "clear_overlay", json!({})).await;
        }
        let mut capture = captured?;
        let full = capture.pixels()?.clone();
        // The capture may be in device pixels (HiDPI): boxes are CSS pixels.
        let viewport_w = snap
            .as_ref()
            .map(|s| s.snapshot.viewport.width)
            .filter(|w| *w > 0.0)
            .unwrap_or(f64::from(full.width()));
        let scale = f64::from(full.width()) / viewport_w;
        let img = match clip {
            Some(b) => {
                let x = (b.x * scale).max(0.0).round() as u32;
                let y = (b.y * scale).max(0.0).round() as u32;
                let x = x.min(full.width().saturating_sub(1));
                let y = y.min(full.height().saturating_sub(1));
                let w = ((b.width * scale).round() as u32).clamp(1, full.width() - x);
                let h = ((b.height * scale).round() as u32).clamp(1, full.height() - y);
                image::imageops::crop_imm(&full, x, y, w, h).to_image()
            }
            None => full,
        };
        let fitted = fit(&img, kind, max_bytes)?;
        let (mime, name) = match kind {
            ImageType::Png => ("image/png", "PNG"),
            ImageType::Jpeg => ("image/jpeg", "JPEG"),
        };
        let shrink = f64::from(img.width()) / f64::from(fitted.size.width);
        let mut text = format!(
            "{} of tab {tab}: {}×{} {name}{}, {} KB",
            match element {
                Some(id) => format!("Screenshot of element {id}"),
                None => "Screenshot".to_string(),
            },
            fitted.size.width,
            fitted.size.height,
            fitted.quality.map(|q| format!(" q{q}")).unwrap_or_default(),
            fitted.bytes.len().div_ceil(1000)
        );
        let css_per_px = shrink / scale;
        if (css_per_px - 1.0).abs() > 0.01 {
            text.push_str(&format!(" (1 image pixel = {css_per_px:.2} CSS pixels)"));
        }
        if annotate {
            text.push_str("; boxes are labelled with element ids");
        }
        text.push('.');
        let data = base64::engine::general_purpose::STANDARD.encode(&fitted.bytes);
        Ok(Reply {
            text,
            image: Some((data, mime)),
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
