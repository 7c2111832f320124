//! The run API's data types (docs/contracts/run-api.md §§9–12), field names exactly as
//! the spec spells them (camelCase on the wire).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::borrow::Cow;

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

/// Which way a scroll goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Up,
    Down,
}

/// The most times one `press` repeats its key (the extension's cap too,
/// extension/run/tools.js `MAX_REPEAT`): a slider's whole range, not a flood.
pub const MAX_REPEAT: u32 = 500;

/// execute_tool's `tool` (docs/contracts/run-api.md §11): one variant per
/// tool, each with its own parameters. On the wire it is
/// `{"name": "click", "parameters": {"id": 42}}`; the parameter names are
/// ours (the spec leaves them open) and docs/server.md lists them:
/// click {id}, type {id, text}, press {key, id?, repeat?}, scroll {direction, amount,
/// id?, within?}, navigate {url}, observe {waitMs?}, ask_user {question},
/// finish {result}. An element id keeps the JSON type it arrived in.
#[derive(Debug, Clone, PartialEq)]
pub enum Tool {
    /// Look again, after `wait_ms` milliseconds when set (a task's "wait 3
    /// seconds", or a page still changing).
    Observe {
        wait_ms: Option<u64>,
    },
    Navigate {
        url: String,
    },
    Click {
        id: ElementId,
    },
    Type {
        id: ElementId,
        text: String,
    },
    /// The page (no id), or the element: scrolled into view, or with
    /// `within`, its own content scrolled ("to the bottom of the textarea").
    Scroll {
        direction: Direction,
        amount: u32,
        id: Option<ElementId>,
        within: bool,
    },
    /// A key, in the element `id` when given (else where the focus is),
    /// `repeat` times when set (a slider's arrow key, once per step of
    /// the value; absent means once).
    Press {
        key: String,
        id: Option<ElementId>,
        repeat: Option<u32>,
    },
    AskUser {
        question: String,
    },
    Finish {
        result: String,
    },
}

impl Tool {
    pub fn observe() -> Tool {
        Tool::Observe { wait_ms: None }
    }

    pub fn name(&self) -> ToolName {
        match self {
            Tool::Observe { .. } => ToolName::Observe,
            Tool::Navigate { .. } => ToolName::Navigate,
            Tool::Click { .. } => ToolName::Click,
            Tool::Type { .. } => ToolName::Type,
            Tool::Scroll { .. } => ToolName::Scroll,
            Tool::Press { .. } => ToolName::Press,
            Tool::AskUser { .. } => ToolName::AskUser,
            Tool::Finish { .. } => ToolName::Finish,
        }
    }

    /// The element it acts on, if any.
    pub fn element(&self) -> Option<&ElementId> {
        match self {
            Tool::Click { id } | Tool::Type { id, .. } => Some(id),
            Tool::Scroll { id, .. } | Tool::Press { id, .. } => id.as_ref(),
            _ => None,
        }
    }

    /// The element id as a string key (history and gate comparisons).
    pub fn element_id(&self) -> Option<String> {
        self.element().map(ElementId::key)
    }

    /// The text a `type` enters.
    pub fn text(&self) -> Option<&str> {
        match self {
            Tool::Type { text, .. } => Some(text),
            _ => None,
        }
    }

    /// The parameters object of the wire form.
    pub fn parameters(&self) -> Map<String, Value> {
        let mut m = Map::new();
        let id = |m: &mut Map<String, Value>, id: &ElementId| {
            m.insert("id".into(), id.to_json());
        };
        match self {
            Tool::Observe { wait_ms } => {
                if let Some(ms) = wait_ms {
                    m.insert("waitMs".into(), Value::from(*ms));
                }
            }
            Tool::Navigate { url } => {
                m.insert("url".into(), Value::from(url.clone()));
            }
            Tool::Click { id: i } => id(&mut m, i),
            Tool::Type { id: i, text } => {
                id(&mut m, i);
                m.insert("text".into(), Value::from(text.clone()));
            }
            Tool::Scroll {
                direction,
                amount,
                id: i,
                within,
            } => {
                let d = match direction {
                    Direction::Up => "up",
                    Direction::Down => "down",
                };
                m.insert("direction".into(), Value::from(d));
                m.insert("amount".into(), Value::from(*amount));
                if let Some(i) = i {
                    id(&mut m, i);
                }
                if *within {
                    m.insert("within".into(), Value::from(true));
                }
            }
            Tool::Press { key, id: i, repeat } => {
                m.insert("key".into(), Value::from(key.clone()));
                if let Some(i) = i {
                    id(&mut m, i);
                }
                if let Some(n) = repeat {
                    m.insert("repeat".into(), Value::from(*n));
                }
            }
            Tool::AskUser { question } => {
                m.insert("question".into(), Value::from(question.clone()));
            }
            Tool::Finish { result } => {
                m.insert("result".into(), Value::from(result.clone()));
            }
        }
        m
    }

    /// A tool from its wire name and parameters; `Err` names what is
    /// missing or malformed. Unknown parameters are ignored.
    pub fn from_parts(name: ToolName, p: &Map<String, Value>) -> Result<Tool, String> {
        let word = name.as_str();
        let id = |required: bool| -> Result<Option<ElementId>, String> {
            match p.get("id") {
                None | Some(Value::Null) if !required => Ok(None),
                None | Some(Value::Null) => Err(format!("{word} needs an id")),
                Some(v) => ElementId::from_json(v)
                    .map(Some)
                    .ok_or_else(|| "id must be a string or number".to_string()),
            }
        };
        let string = |k: &str| -> Result<String, String> {
            p.get(k)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| format!("{word} needs a string \"{k}\""))
        };
        let optional = |k: &str, default: &str| -> String {
            p.get(k)
                .and_then(Value::as_str)
                .unwrap_or(default)
                .to_string()
        };
        Ok(match name {
            ToolName::Observe => Tool::Observe {
                wait_ms: p.get("waitMs").and_then(Value::as_u64),
            },
            ToolName::Navigate => Tool::Navigate {
                url: string("url")?,
            },
            ToolName::Click => Tool::Click {
                id: id(true)?.unwrap_or(ElementId::Num(0)),
            },
            ToolName::Type => Tool::Type {
                id: id(true)?.unwrap_or(ElementId::Num(0)),
                text: string("text")?,
            },
            ToolName::Scroll => Tool::Scroll {
                direction: match p.get("direction").and_then(Value::as_str) {
                    Some("up") => Direction::Up,
                    None | Some("down") => Direction::Down,
                    Some(other) => {
                        return Err(format!("scroll direction must be up or down, not {other}"))
                    }
                },
                amount: p
                    .get("amount")
                    .and_then(Value::as_f64)
                    .filter(|a| a.is_finite() && *a >= 0.0)
                    .map(|a| a.round().min(f64::from(u32::MAX)) as u32)
                    .unwrap_or(600),
                id: id(false)?,
                within: p.get("within").and_then(Value::as_bool).unwrap_or(false),
            },
            ToolName::Press => Tool::Press {
                key: string("key")?,
                id: id(false)?,
                repeat: p
                    .get("repeat")
                    .and_then(Value::as_u64)
                    .filter(|n| *n > 1)
                    .map(|n| n.min(u64::from(MAX_REPEAT)) as u32),
            },
            ToolName::AskUser => Tool::AskUser {
                question: optional("question", "How should I continue?"),
            },
            ToolName::Finish => Tool::Finish {
                result: optional("result", "Task complete"),
            },
        })
    }
}

/// The wire form of a [`Tool`].
#[derive(Serialize, Deserialize)]
struct WireTool {
    name: ToolName,
    #[serde(default)]
    parameters: Map<String, Value>,
}

impl Serialize for Tool {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        WireTool {
            name: self.name(),
            parameters: self.parameters(),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Tool {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let w = WireTool::deserialize(d)?;
        Tool::from_parts(w.name, &w.parameters).map_err(serde::de::Error::custom)
    }
}

pub use crate::page::ElementId;

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
        self.element_key().map(Cow::into_owned)
    }

    /// `element_id()`, borrowed when the id is a string (the run API's
    /// ids): the loop check compares every pair of recent entries at every
    /// step.
    pub fn element_key(&self) -> Option<Cow<'_, str>> {
        match self.parameters.as_ref()?.get("id")? {
            Value::String(s) => Some(Cow::Borrowed(s)),
            Value::Number(n) => Some(Cow::Owned(n.to_string())),
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
