//! Every tool's input, as Rust types: rmcp generates each tool's JSON Schema
//! from them (schemars), so the schema the host shows the model and what the
//! server accepts cannot disagree. Doc comments become the schema's
//! descriptions: short, since every host pays their tokens on every turn.
//! Names follow Playwright MCP's where the meaning is the same (`ref`,
//! `submit`, `values`, `fields`, `textGone`, `type`, `action`).

use crate::error::{McpError, McpResult};
use schemars::JsonSchema;
use serde::Deserialize;

/// An element id from a snapshot: 12, "12" or Playwright's "e12".
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum IdValue {
    Num(u32),
    Text(String),
}

impl IdValue {
    fn number(&self) -> McpResult<u32> {
        match self {
            IdValue::Num(n) => Ok(*n),
            IdValue::Text(s) => {
                let digits = s.trim().trim_start_matches(['e', 'E']);
                digits.parse().map_err(|_| {
                    McpError::BadInput(format!(
                        "{s:?} is not an element id: use a number from the snapshot listing (the first word of a line)"
                    ))
                })
            }
        }
    }
}

/// Which element: `id` (or its alias `ref`; `target`, as newer Playwright
/// MCP names it, is read as `ref` too) from the last snapshot.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
pub struct Target {
    /// Element id from the snapshot listing.
    #[serde(default)]
    pub id: Option<IdValue>,
    /// Same as `id`.
    #[serde(default, rename = "ref", alias = "target")]
    pub reference: Option<IdValue>,
}

impl Target {
    /// The element id, or None when neither is given.
    pub fn optional(&self) -> McpResult<Option<u32>> {
        let id = self.id.as_ref().map(IdValue::number).transpose()?;
        let r = self.reference.as_ref().map(IdValue::number).transpose()?;
        match (id, r) {
            (Some(a), Some(b)) if a != b => Err(McpError::BadInput(format!(
                "id {a} and ref {b} name different elements: give one"
            ))),
            (a, b) => Ok(a.or(b)),
        }
    }

    pub fn required(&self) -> McpResult<u32> {
        self.optional()?.ok_or_else(|| {
            McpError::BadInput(
                "which element? Give `id` (or `ref`): a number from the snapshot listing".into(),
            )
        })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct NavigateParams {
    /// The URL to open (http, https or file).
    pub url: String,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct SnapshotParams {
    /// Token budget of the listing (default 1200).
    #[serde(default)]
    pub max_tokens: Option<u32>,
    /// Only elements matching this query, e.g. role=button text~'sign in'.
    #[serde(default)]
    pub query: Option<String>,
    /// Only elements in the viewport.
    #[serde(default)]
    pub in_viewport_only: Option<bool>,
    /// Only what changed since your last snapshot of this page.
    #[serde(default)]
    pub diff: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ClickParams {
    #[serde(flatten)]
    pub target: Target,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct TypeParams {
    #[serde(flatten)]
    pub target: Target,
    /// Text that replaces the field's value.
    pub text: String,
    /// Press Enter afterwards.
    #[serde(default)]
    pub submit: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct FormField {
    #[serde(flatten)]
    pub target: Target,
    /// Text for a text field, "true"/"false" for a checkbox or radio, an option for a select.
    pub value: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct FillFormParams {
    /// The fields to fill, in order.
    pub fields: Vec<FormField>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SelectParams {
    #[serde(flatten)]
    pub target: Target,
    /// Option values or texts to choose.
    pub values: Vec<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct HoverParams {
    #[serde(flatten)]
    pub target: Target,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct PressKeyParams {
    /// Key name (Enter, Tab, Escape, ArrowDown, a, …), sent to the focused element.
    pub key: String,
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ScrollParams {
    /// Scroll this element into view; without it the page scrolls.
    #[serde(flatten)]
    pub target: Target,
    /// Page scroll direction (default down).
    #[serde(default)]
    pub direction: Option<Direction>,
    /// Pixels (default 600).
    #[serde(default)]
    pub amount: Option<u32>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct WaitForParams {
    /// Wait until this text shows on the page.
    #[serde(default)]
    pub text: Option<String>,
    /// Wait until this text is gone.
    #[serde(default, rename = "textGone")]
    pub text_gone: Option<String>,
    /// Wait until an element matches this query.
    #[serde(default)]
    pub query: Option<String>,
    /// Seconds to wait (alone: a pause; with a condition: the limit, default 10).
    #[serde(default)]
    pub time: Option<f64>,
}

#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ImageType {
    Png,
    #[default]
    Jpeg,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ScreenshotParams {
    /// Only this element.
    #[serde(flatten)]
    pub target: Target,
    /// jpeg (default) or png.
    #[serde(default, rename = "type")]
    pub image_type: Option<ImageType>,
    /// Draw each element's id on the image.
    #[serde(default)]
    pub annotate: Option<bool>,
    /// Byte cap (default 200000); the image is shrunk to fit.
    #[serde(default)]
    pub max_bytes: Option<u32>,
}

#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum TabAction {
    #[default]
    List,
    New,
    Select,
    Close,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct TabsParams {
    /// list (default), new, select or close.
    #[serde(default)]
    pub action: TabAction,
    /// Tab id (select, close; close defaults to the current tab).
    #[serde(default)]
    pub tab: Option<u64>,
    /// URL for a new tab.
    #[serde(default)]
    pub url: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct FindParams {
    /// Query, e.g. role=textbox text~email (fields: role, text, value, importance, in_viewport, clickable, checked, …).
    pub query: String,
    /// Token budget (default 600).
    #[serde(default)]
    pub max_tokens: Option<u32>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct RunTaskParams {
    /// What to do, as a person would say it.
    pub task: String,
    /// Page to start on (default: the current page).
    #[serde(default)]
    pub url: Option<String>,
    /// Step limit (default 40).
    #[serde(default)]
    pub max_steps: Option<u32>,
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
