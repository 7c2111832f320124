//! Vision providers behind one trait (docs/contracts/tools.md §17.3 `callLuxAPI` /
//! `callGeminiAPI`; docs/hands.md): a Lux-style `act` endpoint, Gemini's
//! `generateContent`, any OpenAI-compatible vision chat model, and the
//! built-in `dom` provider (no model: the page snapshot grounded by the
//! System 2 scorer). All answer a point and the space it is in.

mod gemini;
mod lux;
mod openai;

#[cfg(feature = "dom")]
mod dom;

use crate::io::Http;
use crate::tools::ToolClient;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::future::Future;

pub use gemini::GeminiProvider;
pub use lux::LuxProvider;
pub use openai::OpenAiProvider;

/// What a provider is asked: an instruction and the screenshot answered by
/// `POST /screenshot` with `optimize_for: "lux"` (1260×700 image).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LocateRequest {
    pub instruction: String,
    /// PNG, base64, as sent to the models (the 1260×700 one).
    pub image_base64: String,
    pub width: f64,
    pub height: f64,
    /// The full-size screenshot for providers that look at pixels at the
    /// page's own scale (the `dom` provider's scorer); may be empty.
    pub original_base64: String,
    /// Image pixels → viewport pixels (docs/contracts/tools.md §5 `scale_x`/`scale_y`).
    pub scale_x: f64,
    pub scale_y: f64,
    /// `browser` or `desktop`.
    pub scope: String,
    /// The snapshot element a planner chose (the `dom` provider grounds on it).
    pub element: Option<u64>,
}

/// A point a provider chose, in `origin` space (`lux_sdk` or `viewport`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Located {
    pub x: f64,
    pub y: f64,
    pub coordinate_origin: String,
    pub provider: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
}

impl Located {
    /// The point in lux_sdk space (where the spec compares providers).
    pub fn in_lux_space(&self, req: &LocateRequest) -> (f64, f64) {
        if self.coordinate_origin == "viewport" && req.scale_x > 0.0 && req.scale_y > 0.0 {
            (self.x / req.scale_x, self.y / req.scale_y)
        } else {
            (self.x, self.y)
        }
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error, Serialize, Deserialize)]
#[error("{provider}: {message}")]
pub struct ProviderError {
    pub provider: String,
    pub message: String,
}

impl ProviderError {
    pub fn new(provider: &str, message: impl Into<String>) -> Self {
        ProviderError {
            provider: provider.to_string(),
            message: message.into(),
        }
    }
}

pub trait VisionProvider {
    fn name(&self) -> &str;
    fn locate<H: Http>(
        &self,
        tools: &ToolClient<H>,
        req: &LocateRequest,
    ) -> impl Future<Output = Result<Located, ProviderError>>;
}

/// Every provider this crate ships, one enum so that a set of them needs no
/// trait objects (the trait's futures are not object-safe).
#[derive(Debug, Clone, PartialEq)]
pub enum Provider {
    Lux(LuxProvider),
    Gemini(GeminiProvider),
    OpenAi(OpenAiProvider),
    /// The built-in, model-free provider.
    Dom,
}

impl VisionProvider for Provider {
    fn name(&self) -> &str {
        match self {
            Provider::Lux(_) => "lux",
            Provider::Gemini(_) => "gemini",
            Provider::OpenAi(_) => "openai",
            Provider::Dom => "dom",
        }
    }

    async fn locate<H: Http>(
        &self,
        tools: &ToolClient<H>,
        req: &LocateRequest,
    ) -> Result<Located, ProviderError> {
        match self {
            Provider::Lux(p) => p.locate(&tools.http, req).await,
            Provider::Gemini(p) => p.locate(&tools.http, req).await,
            Provider::OpenAi(p) => p.locate(&tools.http, req).await,
            #[cfg(feature = "dom")]
            Provider::Dom => dom::locate(tools, req).await,
            #[cfg(not(feature = "dom"))]
            Provider::Dom => Err(ProviderError::new(
                "dom",
                "this build has no dom provider (the WebAssembly package); configure a model",
            )),
        }
    }
}

/// Finds `{"x": …, "y": …}` in a model's text answer (bare JSON, fenced, or
/// embedded in prose).
pub(crate) fn json_in_text(text: &str) -> Option<Value> {
    let start = text.find('{')?;
    let end = text.rfind('}')?;
    if end < start {
        return None;
    }
    serde_json::from_str(&text[start..=end]).ok()
}

/// POSTs `body` to a provider; a transport error or a non-2xx answer is
/// the provider's error, worded for the user. Returns the answer's JSON.
pub(crate) async fn post_json<H: Http>(
    http: &H,
    provider: &str,
    url: String,
    headers: Vec<(String, String)>,
    body: Value,
) -> Result<Value, ProviderError> {
    let resp = http
        .send(crate::io::Request {
            method: crate::io::Method::Post,
            url,
            headers,
            body: Some(body),
        })
        .await
        .map_err(|e| ProviderError::new(provider, e.0))?;
    if !(200..300).contains(&resp.status) {
        return Err(http_failure(provider, resp.status, &resp.body));
    }
    Ok(resp.body)
}

/// A non-2xx answer or a transport error, worded for the user.
pub(crate) fn http_failure(provider: &str, status: u16, body: &Value) -> ProviderError {
    let detail = body["error"]["message"]
        .as_str()
        .or_else(|| body["error"].as_str())
        .or_else(|| body["message"].as_str())
        .unwrap_or("");
    ProviderError::new(
        provider,
        format!("HTTP {status} {detail}").trim().to_string(),
    )
}

/// Rejects points outside the image the model was shown.
pub(crate) fn in_image(
    provider: &str,
    x: f64,
    y: f64,
    req: &LocateRequest,
) -> Result<(), ProviderError> {
    let (w, h) = (req.width.max(1.0), req.height.max(1.0));
    if x.is_finite() && y.is_finite() && (0.0..=w).contains(&x) && (0.0..=h).contains(&y) {
        Ok(())
    } else {
        Err(ProviderError::new(
            provider,
            format!("answered ({x}, {y}), outside the {w}x{h} image"),
        ))
    }
}
