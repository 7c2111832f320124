//! Chromium's accessibility tree (`Accessibility.getFullAXTree`) as
//! docs/contracts/tools.md §14's text: one `[role] "name"` line per node, two spaces of
//! indent per level (`[WebArea] "Gmail"\n  [navigation] "Main"…`).
//! Ignored nodes and nameless generic containers are skipped (their
//! children move up a level); inline text boxes never show, and a static
//! text repeating its parent's name is dropped as noise.

use serde_json::Value;
use std::collections::HashMap;

const MAX_LINES: usize = 5000;

fn str_at<'a>(v: &'a Value, path: &str) -> &'a str {
    v.pointer(path).and_then(Value::as_str).unwrap_or("")
}

pub fn render(nodes: &Value) -> String {
    let Some(list) = nodes.as_array() else {
        return String::new();
    };
    let by_id: HashMap<&str, &Value> = list.iter().map(|n| (str_at(n, "/nodeId"), n)).collect();
    let Some(root) = list.iter().find(|n| n.get("parentId").is_none()) else {
        return String::new();
    };
    let mut out = Vec::new();
    visit(root, &by_id, 0, "", &mut out);
    out.join("\n")
}

fn visit(
    node: &Value,
    by_id: &HashMap<&str, &Value>,
    depth: usize,
    parent_name: &str,
    out: &mut Vec<String>,
) {
    if out.len() >= MAX_LINES {
        return;
    }
    let role = match str_at(node, "/role/value") {
        "RootWebArea" => "WebArea",
        r => r,
    };
    let name = str_at(node, "/name/value").trim();
    let ignored = node["ignored"].as_bool().unwrap_or(false);
    let skip = ignored
        || role.is_empty()
        || role == "InlineTextBox"
        || (matches!(role, "generic" | "none" | "GenericContainer" | "LineBreak")
            && name.is_empty())
        || (role == "StaticText" && (name.is_empty() || name == parent_name));
    let (child_depth, child_parent) = if skip {
        (depth, parent_name)
    } else {
        let indent = "  ".repeat(depth);
        if name.is_empty() {
            out.push(format!("{indent}[{role}]"));
        } else {
            out.push(format!(
                "{indent}[{role}] {}",
                serde_json::to_string(name).unwrap_or_default()
            ));
        }
        (depth + 1, name)
    };
    if role == "InlineTextBox" {
        return;
    }
    for child in node["childIds"].as_array().into_iter().flatten() {
        if let Some(c) = child.as_str().and_then(|id| by_id.get(id)) {
            visit(c, by_id, child_depth, child_parent, out);
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
