//! The browser behind the routes: one small trait, so that routes know
//! sessions, tabs and CSS pixels but not CDP (docs/architecture.md
//! "Layers"). The Chromium implementation is in `cdp`.

pub mod attach_retry;
pub mod ax_tree;
pub mod cdp;
mod cdp_input;
mod cdp_tabs;
mod cdp_viewport;
mod chromium_config;
mod extension_world;
mod input_channel;
mod profile;

use crate::error::ToolResult;
use crate::geometry::{Point, Size, ViewportPlacement};
use crate::imaging::Capture;
use crate::keys::KeyCombo;
use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;

pub use chromium_config::{chromium_config, Launch};
pub use profile::ProfileLock;

#[derive(Debug, Clone)]
pub struct LaunchRequest {
    pub profile_dir: PathBuf,
    pub headless: bool,
    pub start_url: Option<String>,
    pub viewport: Size,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TabInfo {
    pub id: u64,
    pub url: String,
    pub title: String,
    pub is_current: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum ClickKind {
    #[default]
    Single,
    Double,
    Right,
}

impl ClickKind {
    pub fn name(self) -> &'static str {
        match self {
            ClickKind::Single => "single",
            ClickKind::Double => "double",
            ClickKind::Right => "right",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HistoryStep {
    Reload,
    Back,
    Forward,
}

/// The active tab's viewport: its size in CSS pixels (= screenshot pixels
/// = input coordinates), the device pixel ratio, and its place on the
/// screen (browser window position + the height of the browser's own UI).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewportInfo {
    pub placement: ViewportPlacement,
    pub device_pixel_ratio: f64,
    pub chrome_height: f64,
    pub headless: bool,
}

#[async_trait]
pub trait BrowserLauncher: Send + Sync {
    async fn launch(&self, req: LaunchRequest) -> ToolResult<Arc<dyn BrowserSession>>;
    /// What drives the browser, for `executed_with` (e.g. `cdp`).
    fn driver_name(&self) -> &'static str;
    /// Whether a browser can be launched at all (its executable exists).
    fn available(&self) -> bool;
}

#[async_trait]
pub trait BrowserSession: Send + Sync {
    fn headless(&self) -> bool;
    async fn is_alive(&self) -> bool;
    async fn current_url(&self) -> ToolResult<String>;
    /// Navigates the active tab and returns the URL after redirects.
    async fn navigate(&self, url: &str) -> ToolResult<String>;
    async fn history(&self, step: HistoryStep) -> ToolResult<String>;
    async fn tabs(&self) -> ToolResult<Vec<TabInfo>>;
    async fn new_tab(&self, url: Option<&str>) -> ToolResult<TabInfo>;
    /// Closes a tab (the active one by default); returns how many remain.
    async fn close_tab(&self, id: Option<u64>) -> ToolResult<usize>;
    async fn switch_tab(&self, id: u64) -> ToolResult<TabInfo>;
    async fn viewport(&self) -> ToolResult<ViewportInfo>;
    /// The active tab's viewport in CSS pixels, no browser UI.
    async fn screenshot(&self) -> ToolResult<Capture>;
    /// Clicks at viewport coordinates; returns a tab the click opened.
    async fn click(&self, at: Point, kind: ClickKind) -> ToolResult<Option<TabInfo>>;
    /// Focuses the element matching `selector` by clicking its centre.
    async fn focus_selector(&self, selector: &str) -> ToolResult<()>;
    /// Types text as key events (ASCII) or inserted text (the rest).
    async fn type_keystrokes(&self, text: &str) -> ToolResult<()>;
    /// Inserts text as a paste would (one input event, any characters).
    async fn insert_text(&self, text: &str) -> ToolResult<()>;
    async fn scroll(&self, dx: f64, dy: f64) -> ToolResult<()>;
    async fn keypress(&self, combo: &KeyCombo) -> ToolResult<()>;
    /// Chromium's accessibility tree as indented text (docs/contracts/tools.md §14).
    async fn accessibility_tree(&self) -> ToolResult<String>;
    /// `element_info` (docs/contracts/tools.md §15) of the element at a viewport point.
    async fn element_at(&self, at: Point) -> ToolResult<Value>;
    /// Evaluates an expression in the active tab (awaiting promises).
    async fn evaluate(&self, expression: &str) -> ToolResult<Value>;
    /// A `window.sentience` operation in the active tab with the full view
    /// (frames of every origin), as the extension's own callers get it.
    async fn extension_call(&self, op: &str, args: &Value) -> ToolResult<Value>;
    async fn close(&self);
}
