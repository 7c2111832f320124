//! Reading the model's answer: an OpenAI tool call, or a strict JSON object
//! in the message content (code fences tolerated). The tool is validated
//! against the page: ids must exist, and are echoed in the page's own id type.

use crate::page::Page;
use crate::policy::Decision;
use crate::types::{Tool, ToolName};
use serde_json::{Map, Value};

/// The decision in a chat-completions response body, or why it is unusable.
pub fn decision(body: &Value, page: &Page) -> Result<Decision, String> {
    let msg = body
        .pointer("/choices/0/message")
        .ok_or("response has no choices[0].message")?;
    let (name, params) = if let Some(call) = msg.pointer("/tool_calls/0/function") {
        let name = call
            .get("name")
            .and_then(Value::as_str)
            .ok_or("tool call without a name")?;
        let args = match call.get("arguments") {
            Some(Value::String(s)) if s.trim().is_empty() => Value::Object(Map::new()),
            Some(Value::String(s)) => serde_json::from_str(s)
                .map_err(|e| format!("tool call arguments are not JSON: {e}"))?,
            Some(v @ Value::Object(_)) => v.clone(),
            _ => Value::Object(Map::new()),
        };
        (name.to_string(), args)
    } else {
        let content = msg
            .get("content")
            .and_then(Value::as_str)
            .ok_or("message has neither tool_calls nor content")?;
        let obj = json_object(content).ok_or_else(|| {
            format!(
                "content is not a JSON object: {}",
                crate::text::truncate(content, 120)
            )
        })?;
        let name = obj
            .get("tool")
            .or_else(|| obj.get("name"))
            .and_then(Value::as_str)
            .ok_or("JSON object has no \"tool\"")?
            .to_string();
        let params = obj
            .get("parameters")
            .or_else(|| obj.get("arguments"))
            .cloned()
            .unwrap_or(Value::Object(Map::new()));
        (name, params)
    };
    let tool_name = ToolName::parse(&name).ok_or_else(|| format!("unknown tool \"{name}\""))?;
    let mut params = match params {
        Value::Object(m) => m,
        _ => return Err("parameters must be an object".into()),
    };
    validate(tool_name, &mut params, page)?;
    Ok(match Tool::from_parts(tool_name, &params)? {
        Tool::Finish { result } => Decision::Finish(result),
        Tool::AskUser { question } => Decision::Ask(question),
        tool => Decision::Tool(tool),
    })
}

/// The first balanced {...} in a text (after stripping ``` fences).
fn json_object(s: &str) -> Option<Map<String, Value>> {
    let start = s.find('{')?;
    let end = s.rfind('}')?;
    if end <= start {
        return None;
    }
    match serde_json::from_str::<Value>(&s[start..=end]).ok()? {
        Value::Object(m) => Some(m),
        _ => None,
    }
}

fn validate(name: ToolName, p: &mut Map<String, Value>, page: &Page) -> Result<(), String> {
    let needs_id = matches!(name, ToolName::Click | ToolName::Type);
    if let Some(raw) = p.get("id").cloned() {
        let key = match &raw {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            _ => return Err("id must be a string or number".into()),
        };
        let el = page
            .find(&key)
            .ok_or_else(|| format!("element id {key} is not on the page"))?;
        p.insert("id".into(), page.id_of(el).to_json());
    } else if needs_id {
        return Err(format!("{} needs an id", name.as_str()));
    }
    let need_str = |p: &Map<String, Value>, k: &str| {
        p.get(k)
            .and_then(Value::as_str)
            .map(|_| ())
            .ok_or(format!("{} needs a string \"{k}\"", name.as_str()))
    };
    match name {
        ToolName::Type => need_str(p, "text"),
        ToolName::Press => need_str(p, "key"),
        ToolName::Navigate => {
            need_str(p, "url")?;
            let url = p.get("url").and_then(Value::as_str).unwrap_or("");
            if url.starts_with("http://") || url.starts_with("https://") {
                Ok(())
            } else {
                Err("navigate needs an http(s) url".into())
            }
        }
        ToolName::Scroll => {
            if !p.contains_key("direction") {
                p.insert("direction".into(), Value::from("down"));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}
