//! The session's fixed viewport (docs/contracts/tools.md §11 "Viewport fisso: 1280x720";
//! docs/tools.md "Screenshots and coordinates"): emulated in every tab, the
//! device pixel ratio read from CDP, and a headed window sized around it.

use super::cdp::{eval_in, page_call, CdpSession};
use crate::error::{ToolError, ToolResult};
use chromiumoxide::Page;
use serde_json::{json, Value};
use std::time::Duration;

/// Borders and the height of the tabs, address bar… of a headed window.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct WindowFrame {
    pub(super) border: f64,
    pub(super) top: f64,
}

impl CdpSession {
    /// docs/contracts/tools.md §11 "Viewport fisso: 1280x720": every tab this session drives
    /// gets exactly that viewport in CSS pixels, as Playwright does, through
    /// an emulated device metric: whatever the window, its rounding at a
    /// fractional device pixel ratio (a window sized for 1280×720 at 1.5
    /// measured 1280×721) and whatever the page claims (`innerWidth` is the
    /// page's to redefine). The device pixel ratio stays the screen's.
    pub(crate) async fn fix_viewport(&self, page: &Page) -> ToolResult<()> {
        page_call(
            page,
            "Emulation.setDeviceMetricsOverride",
            json!({"width": self.viewport.width, "height": self.viewport.height, "deviceScaleFactor": 0, "mobile": false}),
        )
        .await
        .map(drop)
    }

    /// The device pixel ratio from CDP's layout metrics (device pixels ÷
    /// CSS pixels of the visual viewport), not from the page.
    pub(super) async fn read_device_pixel_ratio(&self, page: &Page) -> ToolResult<f64> {
        let m = page_call(page, "Page.getLayoutMetrics", json!({})).await?;
        let device = m
            .pointer("/visualViewport/clientWidth")
            .and_then(Value::as_f64);
        let css = m
            .pointer("/cssVisualViewport/clientWidth")
            .and_then(Value::as_f64);
        let dpr = match (device, css) {
            // Chromium rounds the device size: 1897 ÷ 1264.67 at 1.5.
            (Some(d), Some(c)) if c > 0.0 && d > 0.0 => (d / c * 100.0).round() / 100.0,
            _ => 1.0,
        };
        if let Ok(mut v) = self.device_pixel_ratio.lock() {
            *v = dpr;
        }
        Ok(dpr)
    }

    /// A headed window is sized so that its real viewport is the emulated
    /// one, so that the page is where the desktop scope sees it: its
    /// `--window-size` is the outer size, and the browser's own UI takes a
    /// part that differs between versions, so it is measured (once, at
    /// start, without the emulation, in an isolated world where page
    /// scripts cannot redefine `innerWidth`).
    pub(super) async fn fit_window(&self, page: &Page) -> ToolResult<()> {
        page_call(page, "Emulation.clearDeviceMetricsOverride", json!({})).await?;
        let frame_id = page
            .mainframe()
            .await
            .map_err(|e| ToolError::backend("Page.getFrameTree", e))?
            .ok_or_else(|| ToolError::Backend("the tab has no main frame".into()))?;
        let world = page_call(
            page,
            "Page.createIsolatedWorld",
            json!({"frameId": frame_id.inner(), "worldName": "sentience-tools-measure"}),
        )
        .await?;
        let context = world["executionContextId"].as_i64();
        let measure = || async {
            let m = eval_in(
                page,
                "[innerWidth, innerHeight]",
                context,
                "measuring the window",
            )
            .await?;
            let n = |i: usize| m.get(i).and_then(Value::as_f64).unwrap_or(0.0);
            ToolResult::Ok((n(0), n(1)))
        };
        let bounds = |win: &Value, k: &str| {
            win.pointer(&format!("/bounds/{k}"))
                .and_then(Value::as_f64)
                .unwrap_or(0.0)
        };
        let wanted = (
            f64::from(self.viewport.width),
            f64::from(self.viewport.height),
        );
        let (mut iw, mut ih) = measure().await?;
        if (iw, ih) != wanted {
            let win = self.window_of(page).await?;
            let width = bounds(&win, "width") + wanted.0 - iw;
            let height = bounds(&win, "height") + wanted.1 - ih;
            self.browser_call(
                "Browser.setWindowBounds",
                json!({"windowId": win["windowId"], "bounds": {"left": 0, "top": 0, "width": width as i64, "height": height as i64}}),
            )
            .await?;
            // At a fractional ratio the window may end a pixel off: the
            // emulated viewport is exact anyway.
            for _ in 0..50 {
                tokio::time::sleep(Duration::from_millis(20)).await;
                (iw, ih) = measure().await?;
                if (iw, ih) == wanted {
                    break;
                }
            }
        }
        let win = self.window_of(page).await?;
        let border = ((bounds(&win, "width") - iw) / 2.0).max(0.0);
        let frame = WindowFrame {
            border,
            top: (bounds(&win, "height") - ih - border).max(0.0),
        };
        if let Ok(mut f) = self.frame.lock() {
            *f = frame;
        }
        self.fix_viewport(page).await
    }
}
