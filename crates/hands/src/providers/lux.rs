//! A Lux-style `act` endpoint (docs/contracts/tools.md §17.7): POST
//! `{image, task}` with a bearer key, answer `{x, y}` in the 1260×700
//! image's pixels (the tool server's `lux_sdk` space).

use super::{in_image, post_json, LocateRequest, Located, ProviderError};
use crate::io::Http;
use serde_json::json;

#[derive(Debug, Clone, PartialEq)]
pub struct LuxProvider {
    pub url: String,
    pub api_key: Option<String>,
}

impl LuxProvider {
    pub async fn locate<H: Http>(
        &self,
        http: &H,
        req: &LocateRequest,
    ) -> Result<Located, ProviderError> {
        let mut headers = vec![];
        if let Some(k) = &self.api_key {
            headers.push(("Authorization".to_string(), format!("Bearer {k}")));
        }
        let body = post_json(
            http,
            "lux",
            self.url.clone(),
            headers,
            json!({ "image": req.image_base64, "task": req.instruction }),
        )
        .await?;
        // `{x, y}` as the spec's example reads it; some deployments nest it.
        let b = &body;
        let p = if b["x"].is_number() {
            b
        } else if b["action"]["x"].is_number() {
            &b["action"]
        } else {
            &b["coordinates"]
        };
        let (Some(x), Some(y)) = (p["x"].as_f64(), p["y"].as_f64()) else {
            return Err(ProviderError::new(
                "lux",
                format!("no x/y in the answer: {b}"),
            ));
        };
        in_image("lux", x, y, req)?;
        Ok(Located {
            x,
            y,
            coordinate_origin: "lux_sdk".into(),
            provider: "lux".into(),
            reasoning: b["reasoning"].as_str().map(str::to_string),
        })
    }
}
