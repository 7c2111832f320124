//! Deterministic vs vision routing (docs/contracts/tools.md §17.5;
//! docs/hands.md): an action whose type contains one of the spec's keywords
//! goes straight to a browser API endpoint; everything else needs coordinates
//! from a vision provider.

use serde::{Deserialize, Serialize};

/// docs/contracts/tools.md §17.5 `DETERMINISTIC_ACTIONS`, in the spec's order (the first
/// keyword contained in the action type wins, as the spec's loop does).
pub const DETERMINISTIC_ACTIONS: &[(&str, &str)] = &[
    ("navigate", "/browser/navigate"),
    ("go_to_url", "/browser/navigate"),
    ("refresh", "/browser/reload"),
    ("reload", "/browser/reload"),
    ("back", "/browser/back"),
    ("go_back", "/browser/back"),
    ("forward", "/browser/forward"),
    ("go_forward", "/browser/forward"),
    ("new_tab", "/browser/tab/new"),
    ("open_tab", "/browser/tab/new"),
    ("close_tab", "/browser/tab/close"),
    ("switch_tab", "/browser/tab/switch"),
    // Addition: a field a planner chose by its snapshot id, set whole by the
    // extension (a `<select>`, a date input): `{element_id, action: "fill", text}`.
    ("fill_element", "/browser/act"),
    // Addition: an element the planner chose brought into view (or its own
    // content scrolled): `{element_id, action: "scroll", within?, dy?}`.
    ("scroll_element", "/browser/act"),
];

/// docs/contracts/tools.md §17.5 `possibleEndpoints` of a vision action.
pub const VISION_ENDPOINTS: &[&str] = &["/click", "/type", "/scroll"];

/// docs/contracts/tools.md §17.5 `categorizeAction` result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Route {
    #[serde(rename_all = "camelCase")]
    Deterministic {
        endpoint: String,
        needs_vision: bool,
    },
    #[serde(rename_all = "camelCase")]
    VisionRequired {
        needs_vision: bool,
        possible_endpoints: Vec<String>,
    },
}

impl Route {
    pub fn needs_vision(&self) -> bool {
        matches!(self, Route::VisionRequired { .. })
    }
    pub fn endpoint(&self) -> Option<&str> {
        match self {
            Route::Deterministic { endpoint, .. } => Some(endpoint),
            Route::VisionRequired { .. } => None,
        }
    }
}

pub fn categorize_action(action_type: &str) -> Route {
    let t = action_type.to_lowercase();
    for (keyword, endpoint) in DETERMINISTIC_ACTIONS {
        if t.contains(keyword) {
            return Route::Deterministic {
                endpoint: (*endpoint).to_string(),
                needs_vision: false,
            };
        }
    }
    Route::VisionRequired {
        needs_vision: true,
        possible_endpoints: VISION_ENDPOINTS.iter().map(|s| s.to_string()).collect(),
    }
}

/// Whether the endpoint takes `session_id` as a query parameter (the spec's
/// reload/back/forward) rather than in the JSON body.
pub fn session_in_query(endpoint: &str) -> bool {
    matches!(
        endpoint,
        "/browser/reload" | "/browser/back" | "/browser/forward" | "/browser/stop"
    )
}

#[cfg(test)]
mod tests;
