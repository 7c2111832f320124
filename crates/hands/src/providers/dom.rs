//! The built-in `dom` provider: no model at all. It asks the tool server
//! for the page snapshot (`GET /browser/snapshot`, specs/001 elements) and
//! lets the System 2 scorer (specs/000, crates/agent) pick the element the
//! instruction is about; the answer is that element's centre, in viewport
//! pixels. Runs offline, and settles a conflict between two models.

use super::{LocateRequest, Located, ProviderError};
use crate::io::Http;
use crate::page::{snapshot_of, Rect};
use crate::tools::ToolClient;
use sentience_agent::s2::image::Screenshot;
use sentience_agent::s2::score::UserContext;
use sentience_agent::s2::{decide, S2Element, S2Input};
use serde_json::Value;

/// A 1×1 PNG, for when no screenshot came with the request (the scorer
/// wants one; it then judges visibility by the snapshot alone).
const BLANK_PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
    0xde, 0x00, 0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x08, 0xd7, 0x63, 0xf8, 0xff, 0xff, 0x3f,
    0x00, 0x05, 0xfe, 0x02, 0xfe, 0xdc, 0xcc, 0x59, 0xe7, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
    0x44, 0xae, 0x42, 0x60, 0x82,
];

pub(super) async fn locate<H: Http>(
    tools: &ToolClient<H>,
    req: &LocateRequest,
) -> Result<Located, ProviderError> {
    if req.scope == "desktop" {
        return Err(ProviderError::new(
            "dom",
            "the desktop has no DOM to ground on",
        ));
    }
    let v = tools.get("/browser/snapshot").await;
    let snap = snapshot_of(&v).ok_or_else(|| {
        ProviderError::new(
            "dom",
            format!("no page snapshot: {}", crate::tools::error_of(&v)),
        )
    })?;
    ground(snap, req)
}

/// The scorer's choice among the visible elements of `snap`.
pub fn ground(snap: &Value, req: &LocateRequest) -> Result<Located, ProviderError> {
    let elements: Vec<S2Element> = snap["elements"]
        .as_array()
        .map(|els| els.iter().filter_map(element).collect())
        .unwrap_or_default();
    if elements.is_empty() {
        return Err(ProviderError::new(
            "dom",
            "the page has no visible element to act on",
        ));
    }
    let image = [&req.original_base64, &req.image_base64]
        .into_iter()
        .filter(|s| !s.is_empty())
        .find_map(|s| Screenshot::from_base64(s).ok());
    let screenshot = match image {
        Some(s) => s,
        None => Screenshot::from_bytes(BLANK_PNG)
            .map_err(|e| ProviderError::new("dom", e.to_string()))?,
    };
    let out = decide(&S2Input {
        task: req.instruction.clone(),
        screenshot,
        previous_screenshot: None,
        context: UserContext::default(),
        scratchpad: Vec::new(),
        elements,
        prev_action: None,
    });
    if out.action == "backtrack" {
        return Err(ProviderError::new(
            "dom",
            format!("nothing on the page matches \"{}\"", req.instruction),
        ));
    }
    let e = &out.selected_element;
    let r = Rect {
        x: e.x as f64,
        y: e.y as f64,
        width: e.width as f64,
        height: e.height as f64,
    };
    let (x, y) = r.center();
    Ok(Located {
        x,
        y,
        coordinate_origin: "viewport".into(),
        provider: "dom".into(),
        reasoning: Some(out.reasoning),
    })
}

/// A specs/001 element as the scorer's input; hidden, occluded or
/// zero-sized ones are left out (nothing a click could reach).
fn element(e: &Value) -> Option<S2Element> {
    if e["in_viewport"].as_bool() == Some(false) || e["is_occluded"].as_bool() == Some(true) {
        return None;
    }
    let r = Rect::from_json(&e["bbox"])?;
    if r.width <= 0.0 || r.height <= 0.0 {
        return None;
    }
    Some(S2Element {
        x: r.x,
        y: r.y,
        width: r.width,
        height: r.height,
        text: e["text"].as_str().unwrap_or("").to_string(),
        kind: e["role"].as_str().unwrap_or("").to_string(),
        selector: match &e["id"] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        },
    })
}
