//! Gemini's `generateContent` (the REST shape of Google's API): the image
//! inline, a prompt asking for Gemini's own pointing convention — `{"point":
//! [y, x]}` normalised to 0–1000 — converted back to image pixels.

use super::{in_image, json_in_text, post_json, LocateRequest, Located, ProviderError};
use crate::io::Http;
use serde_json::json;

#[derive(Debug, Clone, PartialEq)]
pub struct GeminiProvider {
    /// e.g. `https://…/v1beta` (the models path is appended).
    pub base_url: String,
    pub api_key: Option<String>,
    pub model: String,
}

pub const GEMINI_PROMPT: &str = "Point at the element to act on for this instruction. Answer only JSON {\"point\": [y, x]} with coordinates normalised to 0-1000. Instruction: ";

impl GeminiProvider {
    pub async fn locate<H: Http>(
        &self,
        http: &H,
        req: &LocateRequest,
    ) -> Result<Located, ProviderError> {
        let url = format!(
            "{}/models/{}:generateContent",
            self.base_url.trim_end_matches('/'),
            self.model
        );
        let mut headers = vec![];
        if let Some(k) = &self.api_key {
            headers.push(("x-goog-api-key".to_string(), k.clone()));
        }
        let body = json!({
            "contents": [{ "role": "user", "parts": [
                { "text": format!("{GEMINI_PROMPT}{}", req.instruction) },
                { "inline_data": { "mime_type": "image/png", "data": req.image_base64 } }
            ]}],
            "generationConfig": { "temperature": 0, "responseMimeType": "application/json" }
        });
        let body = post_json(http, "gemini", url, headers, body).await?;
        let text = body["candidates"][0]["content"]["parts"][0]["text"]
            .as_str()
            .unwrap_or("");
        let v = json_in_text(text).ok_or_else(|| {
            ProviderError::new("gemini", format!("no JSON in the answer: {text:?}"))
        })?;
        let (x, y) = if let (Some(py), Some(px)) = (v["point"][0].as_f64(), v["point"][1].as_f64())
        {
            (px / 1000.0 * req.width, py / 1000.0 * req.height)
        } else if let (Some(x), Some(y)) = (v["x"].as_f64(), v["y"].as_f64()) {
            (x, y)
        } else {
            return Err(ProviderError::new(
                "gemini",
                format!("no point in the answer: {text:?}"),
            ));
        };
        in_image("gemini", x, y, req)?;
        Ok(Located {
            x,
            y,
            coordinate_origin: "lux_sdk".into(),
            provider: "gemini".into(),
            reasoning: None,
        })
    }
}
