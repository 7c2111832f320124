//! docs/contracts/run-api.md §§4–8: start, step, answer, cancel, get.

use crate::body::Body;
use crate::error::ApiError;
use crate::events::{self, Before};
use crate::live::{Live, Slot, Uncommitted};
use crate::routes::turns::{
    cached_version, check_ttl, commit, in_turns, loaded, not_found, replayed, Change, Waited,
};
use crate::state::AppState;
use crate::store::{StoreError, Turn};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use axum::Json;
use sentience_agent::time::now_ms;
use sentience_agent::{PolicyError, Run, RunError, RunMode, Snapshot, ToolResult};
use sentience_guard::Caller;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::time::{Duration, Instant};

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

/// POST /agent/run/start (docs/contracts/run-api.md §4).
pub async fn start(
    State(s): State<AppState>,
    caller: Option<Extension<Caller>>,
    body: Body,
) -> Result<Json<Value>, ApiError> {
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
    // docs/security.md "Rate limits and quotas": runs going at once, per
    // caller; a run left idle past the cache's idle time no longer counts.
    let owner = caller.map_or_else(|| "anonymous".into(), |Extension(c)| c.quota_key());
    let limit = s.config.max_running_runs;
    let since = now_ms().saturating_sub(s.config.cache_idle.as_millis() as u64);
    let last_seq = match s.store.create(&run, owner, limit, since).await? {
        Ok(last_seq) => last_seq,
        Err(n) => {
            return Err(ApiError::TooManyRequests(
                format!(
                    "Too many runs at once: {n} of at most {limit} are going \
                     (finish or cancel one, or wait until one has been idle for {} s)",
                    s.config.cache_idle.as_secs()
                ),
                Some(RUNS_RETRY_AFTER_SECS),
            ))
        }
    };
    tracing::debug!(run_id = %run.run_id, ?mode, "run started");
    let reply = json!({"success": true, "runId": run.run_id, "state": run.summary()});
    // Nobody else knows the id yet: cache it for its first step.
    s.live.insert(Live::new(run, last_seq)).await;
    Ok(Json(reply))
}

/// `Retry-After` of the running-runs quota's 429. When a place frees is
/// not known (a run ends when its client finishes or cancels it, or after
/// it has idled `cache_idle`): a short hint, so a waiting client neither
/// hammers the server nor waits for the worst case.
const RUNS_RETRY_AFTER_SECS: u64 = 5;

/// Validate an idempotency key (header `Idempotency-Key` wins over the body's).
fn check_key(key: Option<String>) -> Result<Option<String>, ApiError> {
    match key {
        Some(k) if k.is_empty() || k.chars().count() > MAX_KEY_CHARS => Err(bad(format!(
            "Idempotency key must be 1 to {MAX_KEY_CHARS} characters"
        ))),
        k => Ok(k),
    }
}

fn header_key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    headers
        .get("idempotency-key")
        .map(|h| {
            h.to_str()
                .map(str::to_string)
                .map_err(|_| bad("Idempotency-Key must be visible ASCII"))
        })
        .transpose()
}

/// The idempotency key: header `Idempotency-Key`, else body `idempotencyKey`.
fn idempotency_key(
    headers: &HeaderMap,
    obj: &Map<String, Value>,
) -> Result<Option<String>, ApiError> {
    let key = match header_key(headers)? {
        Some(k) => Some(k),
        None => match obj.get("idempotencyKey") {
            None | Some(Value::Null) => None,
            Some(Value::String(k)) => Some(k.clone()),
            Some(_) => return Err(bad("\"idempotencyKey\" must be a string")),
        },
    };
    check_key(key)
}

pub(crate) fn json_response(status: u16, body: String, replayed: bool) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    let mut r = (status, [("content-type", "application/json")], body).into_response();
    if replayed {
        r.headers_mut()
            .insert("idempotent-replayed", HeaderValue::from_static("true"));
    }
    r
}

fn to_json<T: Serialize + ?Sized>(v: &T) -> Result<String, ApiError> {
    serde_json::to_string(v).map_err(|e| ApiError::Internal(e.to_string()))
}

fn is_null(v: &RawValue) -> bool {
    v.get() == "null"
}

/// The /step body, read without building a `Value` of the snapshot: each
/// member stays raw JSON text until it is parsed into its own type.
struct StepBody {
    snapshot: Option<Snapshot>,
    last: Option<ToolResult>,
    key: Option<String>,
}

fn step_body(body: &Body, headers: &HeaderMap) -> Result<StepBody, ApiError> {
    // An empty body or `null` counts as `{}`, as for the other endpoints.
    let members: HashMap<String, &RawValue> = if body.0.iter().all(u8::is_ascii_whitespace) {
        HashMap::new()
    } else {
        serde_json::from_slice::<Option<HashMap<String, &RawValue>>>(&body.0)
            .map_err(|e| {
                // Same answers as for other bodies: invalid JSON, or not an object.
                match serde_json::from_slice::<Value>(&body.0) {
                    Ok(_) => bad("Body must be a JSON object"),
                    Err(_) => bad(format!("Body is not valid JSON: {e}")),
                }
            })?
            .unwrap_or_default()
    };
    let snapshot = match members.get("snapshot") {
        None => None,
        Some(v) if is_null(v) => None,
        Some(v) if v.get().starts_with('{') => {
            Some(Snapshot::parse(RawValue::to_owned(v)).map_err(bad)?)
        }
        Some(_) => return Err(bad("\"snapshot\" must be an object or null")),
    };
    let last = match members.get("lastActionResult") {
        None => None,
        Some(v) if is_null(v) => None,
        Some(v) => Some(
            serde_json::from_str::<ToolResult>(v.get())
                .map_err(|e| bad(format!("lastActionResult: {e}")))?,
        ),
    };
    // The header wins; the body's key is only looked at without one.
    let key = match header_key(headers)? {
        Some(k) => Some(k),
        None => match members.get("idempotencyKey") {
            None => None,
            Some(v) if is_null(v) => None,
            Some(v) => Some(
                serde_json::from_str::<String>(v.get())
                    .map_err(|_| bad("\"idempotencyKey\" must be a string"))?,
            ),
        },
    };
    Ok(StepBody {
        snapshot,
        last,
        key: check_key(key)?,
    })
}

/// POST /agent/run/:runId/step (docs/contracts/run-api.md §5).
pub async fn step(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let t0 = Instant::now();
    let b = step_body(&body, &headers)?;
    drop(body);
    let mut change = StepChange {
        snapshot: b.snapshot,
        last: b.last,
        key: b.key,
        t0,
        parsed: t0.elapsed(),
    };
    // An LLM's decision is not made twice: its turns take the row lock.
    let locked = s.policy.info().policy == "llm";
    in_turns(&s, &id, locked, &mut change).await
}

/// A /step's inputs, kept across attempts while an attempt may be redone.
struct StepChange {
    snapshot: Option<Snapshot>,
    last: Option<ToolResult>,
    key: Option<String>,
    t0: Instant,
    parsed: Duration,
}

impl Change for StepChange {
    type Reply = Response;

    async fn attempt(
        &mut self,
        s: &AppState,
        slot: &mut Slot,
        turn: Turn,
        waited: Waited,
        attempt: usize,
    ) -> Result<Option<Response>, ApiError> {
        let t_decide = Instant::now();
        let took = turn.took;
        let live = loaded(slot.as_mut())?;
        if let Some(replay) = replayed(live, "step", self.key.as_deref()) {
            turn.release().await;
            return Ok(Some(replay));
        }
        // A turn written by compare-and-set may have to be redone: it
        // decides on copies of the inputs.
        let (snapshot, last) = if turn.may_conflict() {
            (self.snapshot.clone(), self.last.clone())
        } else {
            (self.snapshot.take(), self.last.take())
        };
        let before = Before::of(&live.run);
        let started = events::step_started(snapshot.as_ref().map(|s| &s.page), last.as_ref());
        let mut change = Uncommitted::new(slot);
        let live = loaded(change.live())?;
        let resp = match live.run.step(snapshot, last, s.policy.as_ref()).await {
            Ok(r) => r,
            Err(_) if turn.may_conflict() => {
                // Decided on a copy that may be stale: decide again on the
                // stored run (dropping `change` drops the copy).
                turn.release().await;
                return Ok(None);
            }
            Err(e) => {
                // A failed decision leaves the run as it was (Run::step).
                change.keep();
                turn.release().await;
                return Err(e.into());
            }
        };
        let decided = Instant::now();
        let evs = events::stepped(before, &live.run, &resp, started);
        let text = to_json(&resp)?;
        let reply = Some(("step", self.key.clone(), text.as_str()));
        let Some(commit) = commit(turn, change, reply, evs).await? else {
            return Ok(None);
        };
        // Where a slow step spent its time (docs/benchmarks.md "Agent
        // server"): this process's lock on the run; the store's turn (a
        // pooled connection, then on PostgreSQL's locked turns `BEGIN` +
        // the row lock); the decision; the answer, events and run
        // serialised; the commit's round trip (SQLite: the database
        // thread's queue and batch; PostgreSQL: the statement, its commit
        // and WAL flush).
        let u = |d: Duration| d.as_micros() as u64;
        let written = decided.elapsed();
        tracing::trace!(
            parse_us = u(self.parsed),
            lock_us = u(waited.lock),
            acquire_us = u(took.acquire),
            begin_us = u(took.begin),
            turn_us = u(waited.turn),
            decide_us = u(decided - t_decide),
            serialize_us = u(written.saturating_sub(commit)),
            commit_us = u(commit),
            total_us = u(self.t0.elapsed()),
            attempt,
            "step"
        );
        Ok(Some(json_response(200, text, false)))
    }
}

/// POST /agent/run/:runId/answer (docs/contracts/run-api.md §6).
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
    let mut change = AnswerChange {
        approved,
        text,
        key,
    };
    in_turns(&s, &id, false, &mut change).await
}

struct AnswerChange {
    approved: bool,
    text: Option<String>,
    key: Option<String>,
}

impl Change for AnswerChange {
    type Reply = Response;

    async fn attempt(
        &mut self,
        _: &AppState,
        slot: &mut Slot,
        turn: Turn,
        _: Waited,
        _: usize,
    ) -> Result<Option<Response>, ApiError> {
        let live = loaded(slot.as_mut())?;
        if let Some(replay) = replayed(live, "answer", self.key.as_deref()) {
            turn.release().await;
            return Ok(Some(replay));
        }
        let before = Before::of(&live.run);
        let mut change = Uncommitted::new(slot);
        let live = loaded(change.live())?;
        let resp = match live.run.answer(self.approved, self.text.clone()) {
            Ok(r) => r,
            Err(_) if turn.may_conflict() => {
                // "Not waiting" on a copy that may be stale: ask again on
                // the stored run.
                turn.release().await;
                return Ok(None);
            }
            Err(e) => {
                // Not waiting: nothing changed.
                change.keep();
                turn.release().await;
                return Err(e.into());
            }
        };
        let evs = events::answered(
            before,
            &live.run,
            self.approved,
            self.text.as_deref(),
            &resp,
        );
        let body = to_json(&resp)?;
        let reply = Some(("answer", self.key.clone(), body.as_str()));
        Ok(commit(turn, change, reply, evs)
            .await?
            .map(|_| json_response(200, body, false)))
    }
}

/// POST /agent/run/:runId/cancel of docs/contracts/run-api.md §7 (body ignored; may be empty).
pub async fn cancel(
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    in_turns(&s, &id, false, &mut CancelChange).await
}

struct CancelChange;

impl Change for CancelChange {
    type Reply = Json<Value>;

    async fn attempt(
        &mut self,
        _: &AppState,
        slot: &mut Slot,
        turn: Turn,
        _: Waited,
        _: usize,
    ) -> Result<Option<Json<Value>>, ApiError> {
        let done = || Json(json!({"success": true}));
        if loaded(slot.as_mut())?.run.status.is_terminal() {
            // Idempotent: an ended run stays as it is.
            turn.release().await;
            return Ok(Some(done()));
        }
        let mut change = Uncommitted::new(slot);
        let live = loaded(change.live())?;
        let before = Before::of(&live.run);
        live.run.cancel();
        let evs = events::cancelled(before, &live.run);
        Ok(commit(turn, change, None, evs).await?.map(|_| done()))
    }
}

/// GET /agent/run/:runId (docs/contracts/run-api.md §8).
pub async fn get(State(s): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    #[derive(Serialize)]
    struct Full<'a> {
        success: bool,
        state: &'a Run,
    }
    // This process's lock orders the read after this process's turns on
    // the run; the store answers with the last committed state (another
    // replica's turn in progress is not waited for: its change is not
    // committed, so the read is ordered before it).
    let mut slot = s.live.lock(&id).await;
    match s.store.read(&id, cached_version(&s, &slot)).await? {
        None => {
            *slot = None;
            return Err(not_found(&id));
        }
        Some(Some(stored)) => *slot = Some(Live::from(stored)),
        Some(None) => {}
    }
    let live = loaded(slot.as_mut())?;
    check_ttl(&s, live, &id)?;
    let body = to_json(&Full {
        success: true,
        state: &live.run,
    })?;
    Ok(json_response(200, body, false))
}
