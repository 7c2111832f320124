//! The extension's API with the full view, for the sessions this server
//! drives: `SentienceTrusted.call(op, args)` in the page's "Sentience"
//! isolated world (docs/api.md "Who may see and do what"). Page scripts get
//! only what the same-origin policy gives them through `window.sentience`;
//! the operator who drives the browser over CDP asked for everything
//! (frames of other origins included), and a debugger could read it anyway.

use super::cdp::{eval_in, page_call};
use crate::error::{ToolError, ToolResult};
use chromiumoxide::cdp::js_protocol::runtime::EventExecutionContextCreated;
use chromiumoxide::Page;
use futures::StreamExt;
use serde_json::{json, Value};
use std::time::Duration;

/// The extension's name in the manifest: Chromium names its content
/// scripts' isolated world after it.
const WORLD: &str = "Sentience";
/// How long the world may take to show (a page still loading its content
/// scripts).
const WORLD_TIMEOUT: Duration = Duration::from_secs(5);

/// The execution context id of the extension's world in the page's main
/// frame. CDP has no "list contexts" call: re-enabling the Runtime domain
/// makes Chromium announce every existing context again.
async fn world(page: &Page) -> ToolResult<i64> {
    let frame = page
        .mainframe()
        .await
        .map_err(|e| ToolError::backend("Page.getFrameTree", e))?
        .map(|f| f.inner().clone());
    let mut created = page
        .event_listener::<EventExecutionContextCreated>()
        .await
        .map_err(|e| ToolError::backend("Runtime events", e))?;
    page_call(page, "Runtime.disable", json!({})).await?;
    page_call(page, "Runtime.enable", json!({})).await?;
    let found = tokio::time::timeout(WORLD_TIMEOUT, async {
        while let Some(ev) = created.next().await {
            let aux = ev.context.aux_data.as_ref();
            let isolated = aux.and_then(|a| a["type"].as_str()) == Some("isolated");
            let in_main =
                frame.is_none() || aux.and_then(|a| a["frameId"].as_str()) == frame.as_deref();
            if ev.context.name == WORLD && isolated && in_main {
                return Some(*ev.context.id.inner());
            }
        }
        None
    })
    .await;
    match found {
        Ok(Some(id)) => Ok(id),
        _ => Err(ToolError::Unavailable(
            "The Sentience extension is not active in this tab (build it with pkg-scripts/build.sh; extensions do not run on about: or chrome: pages)".into(),
        )),
    }
}

/// `SentienceTrusted.call(op, args)` in the active page's extension world:
/// what the page API would answer, with the full view.
pub(crate) async fn call(page: &Page, op: &str, args: &Value) -> ToolResult<Value> {
    let context = world(page).await?;
    let expression = format!("SentienceTrusted.call({}, {})", json!(op), args);
    eval_in(page, &expression, Some(context), "the extension").await
}
