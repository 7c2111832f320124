//! specs/004 "Run Management": start, step, answer, cancel, get.

use crate::body::Body;
use crate::error::ApiError;
use crate::state::AppState;
use crate::store::{Reply, StoreError};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use sentience_agent::time::now_ms;
use sentience_agent::{Page, PolicyError, Run, RunError, RunMode, ToolResult};
use serde_json::{json, Map, Value};

/// Longest task accepted (characters).
const MAX_TASK_CHARS: usize = 10_000;
/// Longest idempotency key accepted.
const MAX_KEY_CHARS: usize = 200;

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        ApiError::Internal(e.to_string())
    }
}

impl From<RunError> for ApiError {
    fn from(e: RunError) -> Self {
        match e {
            RunError::NotWaiting(_) => ApiError::BadRequest(e.to_string()),
            RunError::Policy(p @ (PolicyError::Llm(_) | PolicyError::Malformed(_))) => {
                ApiError::Policy(p.to_string())
            }
        }
    }
}

fn bad(msg: impl Into<String>) -> ApiError {
    ApiError::BadRequest(msg.into())
}

/// The body as a JSON object; an empty body counts as `{}`.
fn object(body: &Body) -> Result<Map<String, Value>, ApiError> {
    match body.json()? {
        Value::Null => Ok(Map::new()),
        Value::Object(m) => Ok(m),
        _ => Err(bad("Body must be a JSON object")),
    }
}

/// specs/004 POST /agent/run/start.
pub async fn start(State(s): State<AppState>, body: Body) -> Result<Json<Value>, ApiError> {
    let obj = object(&body)?;
    let task = match obj.get("task") {
        None | Some(Value::Null) => return Err(bad("Missing required field \"task\"")),
        Some(Value::String(t)) if t.trim().is_empty() => {
            return Err(bad("\"task\" must not be empty"))
        }
        Some(Value::String(t)) if t.chars().count() > MAX_TASK_CHARS => {
            return Err(bad(format!(
                "\"task\" is longer than {MAX_TASK_CHARS} characters"
            )))
        }
        Some(Value::String(t)) => t.trim().to_string(),
        Some(_) => return Err(bad("\"task\" must be a string")),
    };
    let mode = match obj.get("mode") {
        None | Some(Value::Null) => RunMode::Autonomous,
        Some(Value::String(m)) => RunMode::parse(m).ok_or_else(|| {
            bad(format!(
                "Invalid mode \"{m}\": expected \"autonomous\" or \"careful\""
            ))
        })?,
        Some(_) => return Err(bad("\"mode\" must be a string")),
    };
    let run = Run::new(uuid::Uuid::new_v4().to_string(), task, mode);
    s.store.save(&run, None).await?;
    tracing::info!(run_id = %run.run_id, ?mode, "run started");
    Ok(Json(
        json!({"success": true, "runId": run.run_id, "state": run.summary()}),
    ))
}

/// A run that exists and has not expired (specs/004: 404 "doesn't exist or expired").
async fn load_live(s: &AppState, id: &str) -> Result<Run, ApiError> {
    let run = s
        .store
        .load(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("Run {id} not found")))?;
    let idle_ms = now_ms().saturating_sub(run.updated_at);
    if u128::from(idle_ms) > s.config.run_ttl.as_millis() {
        return Err(ApiError::NotFound(format!("Run {id} expired")));
    }
    Ok(run)
}

/// The idempotency key: header `Idempotency-Key`, else body `idempotencyKey`.
fn idempotency_key(
    headers: &HeaderMap,
    obj: &Map<String, Value>,
) -> Result<Option<String>, ApiError> {
    let key = match headers.get("idempotency-key") {
        Some(h) => Some(
            h.to_str()
                .map_err(|_| bad("Idempotency-Key must be visible ASCII"))?
                .to_string(),
        ),
        None => match obj.get("idempotencyKey") {
            None | Some(Value::Null) => None,
            Some(Value::String(k)) => Some(k.clone()),
            Some(_) => return Err(bad("\"idempotencyKey\" must be a string")),
        },
    };
    match key {
        Some(k) if k.is_empty() || k.chars().count() > MAX_KEY_CHARS => Err(bad(format!(
            "Idempotency key must be 1 to {MAX_KEY_CHARS} characters"
        ))),
        k => Ok(k),
    }
}

fn json_response(status: u16, body: String, replayed: bool) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    let mut r = (status, [("content-type", "application/json")], body).into_response();
    if replayed {
        r.headers_mut()
            .insert("idempotent-replayed", HeaderValue::from_static("true"));
    }
    r
}

/// specs/004 POST /agent/run/:runId/step.
pub async fn step(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let mut obj = object(&body)?;
    let snapshot = match obj.remove("snapshot") {
        None | Some(Value::Null) => None,
        Some(v @ Value::Object(_)) => {
            let page = Page::from_json(&v).map_err(bad)?;
            Some((v, page))
        }
        Some(_) => return Err(bad("\"snapshot\" must be an object or null")),
    };
    let last = match obj.get("lastActionResult") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            serde_json::from_value::<ToolResult>(v.clone())
                .map_err(|e| bad(format!("lastActionResult: {e}")))?,
        ),
    };
    let key = idempotency_key(&headers, &obj)?;
    // Serialise steps on this run; different runs proceed in parallel.
    let _guard = s.locks.lock(&id).await;
    let mut run = load_live(&s, &id).await?;
    if let Some(k) = &key {
        if let Some(r) = s.store.reply(&id, k, "step").await? {
            return Ok(json_response(r.status, r.body, true));
        }
    }
    let resp = run.step(snapshot, last, s.policy.as_ref()).await?;
    let text = serde_json::to_string(&resp).map_err(|e| ApiError::Internal(e.to_string()))?;
    let reply = key.map(|k| {
        (
            k,
            "step",
            Reply {
                status: 200,
                body: text.clone(),
            },
        )
    });
    s.store.save(&run, reply).await?;
    Ok(json_response(200, text, false))
}

/// specs/004 POST /agent/run/:runId/answer.
pub async fn answer(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let obj = object(&body)?;
    let approved = match obj.get("approved") {
        Some(Value::Bool(b)) => *b,
        None | Some(Value::Null) => return Err(bad("Missing required field \"approved\"")),
        Some(_) => return Err(bad("\"approved\" must be a boolean")),
    };
    let text = match obj.get("answer") {
        None | Some(Value::Null) => None,
        Some(Value::String(a)) => Some(a.clone()),
        Some(_) => return Err(bad("\"answer\" must be a string")),
    };
    let key = idempotency_key(&headers, &obj)?;
    let _guard = s.locks.lock(&id).await;
    let mut run = load_live(&s, &id).await?;
    if let Some(k) = &key {
        if let Some(r) = s.store.reply(&id, k, "answer").await? {
            return Ok(json_response(r.status, r.body, true));
        }
    }
    let resp = run.answer(approved, text)?;
    let body = serde_json::to_string(&resp).map_err(|e| ApiError::Internal(e.to_string()))?;
    let reply = key.map(|k| {
        (
            k,
            "answer",
            Reply {
                status: 200,
                body: body.clone(),
            },
        )
    });
    s.store.save(&run, reply).await?;
    Ok(json_response(200, body, false))
}

/// specs/004 POST /agent/run/:runId/cancel (body ignored; may be empty).
pub async fn cancel(
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let _guard = s.locks.lock(&id).await;
    let mut run = load_live(&s, &id).await?;
    run.cancel();
    s.store.save(&run, None).await?;
    Ok(Json(json!({"success": true})))
}

/// specs/004 GET /agent/run/:runId.
pub async fn get(
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let run = load_live(&s, &id).await?;
    Ok(Json(json!({"success": true, "state": run})))
}
