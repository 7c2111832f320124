//! Any OpenAI-compatible vision chat model (`POST {base}/chat/completions`
//! with an `image_url` data URL), asked for `{"x": …, "y": …}` in the
//! pixels of the image it is shown.

use super::{in_image, json_in_text, post_json, LocateRequest, Located, ProviderError};
use crate::io::Http;
use serde_json::json;

#[derive(Debug, Clone, PartialEq)]
pub struct OpenAiProvider {
    pub base_url: String,
    pub api_key: Option<String>,
    pub model: String,
}

impl OpenAiProvider {
    pub async fn locate<H: Http>(
        &self,
        http: &H,
        req: &LocateRequest,
    ) -> Result<Located, ProviderError> {
        let url = format!("{}/chat/completions", self.base_url.trim_end_matches('/'));
        let mut headers = vec![];
        if let Some(k) = &self.api_key {
            headers.push(("Authorization".to_string(), format!("Bearer {k}")));
        }
        let prompt = format!(
            "The image is {}x{} pixels. Give the pixel coordinates of the point to click for this instruction, as JSON only: {{\"x\": <int>, \"y\": <int>}}. Instruction: {}",
            req.width, req.height, req.instruction
        );
        let body = json!({
            "model": self.model,
            "temperature": 0,
            "messages": [{ "role": "user", "content": [
                { "type": "text", "text": prompt },
                { "type": "image_url", "image_url": { "url": format!("data:image/png;base64,{}", req.image_base64) } }
            ]}]
        });
        let body = post_json(http, "openai", url, headers, body).await?;
        let text = body["choices"][0]["message"]["content"]
            .as_str()
            .unwrap_or("");
        let v = json_in_text(text).ok_or_else(|| {
            ProviderError::new("openai", format!("no JSON in the answer: {text:?}"))
        })?;
        let (Some(x), Some(y)) = (v["x"].as_f64(), v["y"].as_f64()) else {
            return Err(ProviderError::new(
                "openai",
                format!("no x/y in the answer: {text:?}"),
            ));
        };
        in_image("openai", x, y, req)?;
        Ok(Located {
            x,
            y,
            coordinate_origin: "lux_sdk".into(),
            provider: "openai".into(),
            reasoning: None,
        })
    }
}
