//! The run API's data types (docs/contracts/run-api.md §§9–12), field names exactly as
//! the spec spells them (camelCase on the wire).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// docs/contracts/run-api.md §9.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    Created,
    Running,
    WaitingUser,
    Completed,
    Error,
    Cancelled,
}

impl RunStatus {
    /// A terminal run never changes again (cancel is a no-op, step repeats the end).
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            RunStatus::Completed | RunStatus::Error | RunStatus::Cancelled
        )
    }
}

/// docs/contracts/run-api.md §10: careful enables the security gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunMode {
    Autonomous,
    Careful,
}

impl RunMode {
    pub fn parse(s: &str) -> Option<RunMode> {
        match s {
            "autonomous" => Some(RunMode::Autonomous),
            "careful" => Some(RunMode::Careful),
            _ => None,
        }
    }
}

/// docs/contracts/run-api.md §11.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolName {
    Observe,
    Navigate,
    Click,
    Type,
    Scroll,
    Press,
    AskUser,
    Finish,
}

impl ToolName {
    pub const ALL: [ToolName; 8] = [
        ToolName::Observe,
        ToolName::Navigate,
        ToolName::Click,
        ToolName::Type,
        ToolName::Scroll,
        ToolName::Press,
        ToolName::AskUser,
        ToolName::Finish,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ToolName::Observe => "observe",
            ToolName::Navigate => "navigate",
            ToolName::Click => "click",
            ToolName::Type => "type",
            ToolName::Scroll => "scroll",
            ToolName::Press => "press",
            ToolName::AskUser => "ask_user",
            ToolName::Finish => "finish",
        }
    }

    pub fn parse(s: &str) -> Option<ToolName> {
        ToolName::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

/// execute_tool's `tool` (docs/contracts/run-api.md §11): a name and its parameters. The parameter
/// names are ours (the spec leaves them open); docs/server.md lists them:
/// click {id}, type {id, text}, press {key, id?}, scroll {direction, amount},
/// navigate {url}, observe {}.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tool {
    pub name: ToolName,
    pub parameters: Map<String, Value>,
}

impl Tool {
    pub fn new(name: ToolName, params: Value) -> Tool {
        let parameters = match params {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        Tool { name, parameters }
    }

    pub fn observe() -> Tool {
        Tool::new(ToolName::Observe, Value::Object(Map::new()))
    }

    /// The element id parameter as a string, whatever JSON type carried it.
    pub fn element_id(&self) -> Option<String> {
        match self.parameters.get("id")? {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    }

    pub fn str_param(&self, key: &str) -> Option<&str> {
        self.parameters.get(key).and_then(Value::as_str)
    }
}

/// docs/contracts/run-api.md §11: what the extension reports about the last action.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ToolResult {
    pub success: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// A bounding box (docs/contracts/run-api.md §12 ElementInfo.bbox): the snapshot model's.
pub use sentience_snapshot_query::BBox;

/// GET /agent/run/:runId (docs/contracts/run-api.md §8) `history[]`, with extra fields the
/// reflections need (what was acted on, and the page before and after).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryEntry {
    pub step_number: u32,
    pub action: String,
    pub observation: String,
    pub timestamp: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Map<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element_text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bbox: Option<BBox>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Page signature when the action was chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_before: Option<String>,
    /// Page signature of the next snapshot (set when the result arrives).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_after: Option<String>,
}

impl HistoryEntry {
    pub fn element_id(&self) -> Option<String> {
        match self.parameters.as_ref()?.get("id")? {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    }

    pub fn param_str(&self, key: &str) -> Option<&str> {
        self.parameters.as_ref()?.get(key)?.as_str()
    }

    /// The page did not change across this action (both signatures known).
    pub fn no_page_change(&self) -> bool {
        matches!((&self.page_before, &self.page_after), (Some(a), Some(b)) if a == b)
    }
}

/// `reflections[]` (docs/contracts/run-api.md §13).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reflection {
    pub step_number: u32,
    pub steps_analyzed: u32,
    pub efficiency: String,
    pub issues: Vec<String>,
    pub suggestions: Vec<String>,
    pub should_adjust: bool,
    pub timestamp: u64,
    /// Element ids the policy should stay away from (loop targets).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub avoid_element_ids: Vec<String>,
}

/// `state` (docs/contracts/run-api.md §9) in every step response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StateSummary {
    pub status: RunStatus,
    pub current_step: u32,
    pub max_steps: u32,
}

/// docs/contracts/run-api.md §5 /step and /answer responses: execute_tool |
/// ask_user | finish | error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum StepResponse {
    ExecuteTool {
        tool: Tool,
        state: StateSummary,
    },
    AskUser {
        question: String,
        state: StateSummary,
    },
    Finish {
        result: String,
        state: StateSummary,
    },
    Error {
        error: String,
        state: StateSummary,
    },
}
