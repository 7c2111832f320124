//! The HTML browse protocol (docs/contracts/browse.md):
//! `POST /browse`, one message per request, the conversation named by the
//! `Browse-Session` header; and `GET /browse` upgraded to a WebSocket, where
//! the connection is the conversation.

use crate::body::Body;
use crate::error::ApiError;
use crate::state::AppState;
use crate::store::BrowseTurn;
use axum::body::to_bytes;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use sentience_agent::time::now_ms;
use sentience_browse::{builtin_step, Answer, Conversation, Request};

/// The response header naming the conversation (docs/contracts/browse.md §7).
pub const SESSION_HEADER: &str = "browse-session";

/// Parses one message and applies the `html` size limit (413).
fn parse(s: &AppState, bytes: &[u8]) -> Result<Request, ApiError> {
    let req = Request::parse(bytes).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let len = req.html().len();
    if len > s.config.max_html_bytes {
        return Err(ApiError::HtmlTooLarge(len, s.config.max_html_bytes));
    }
    Ok(req)
}

/// One decision: the LLM policy when one is configured, else the built-in
/// one (CPU work on a blocking thread: a 10k-element page takes a while).
async fn decide(
    s: &AppState,
    conv: Conversation,
    req: Request,
) -> Result<(Conversation, Answer), ApiError> {
    if let Some(cfg) = s.config.browse_llm.clone() {
        return crate::browse_llm::step(s, &cfg, conv, req).await;
    }
    tokio::task::spawn_blocking(move || {
        let mut conv = conv;
        let a = builtin_step(&mut conv, req.html(), req.url());
        (conv, a)
    })
    .await
    .map_err(|e| ApiError::Internal(format!("browse policy failed: {e}")))
}

/// The conversation held by `turn`, if it exists and has not expired (an
/// expired one is deleted through the turn, which holds its row), or 404.
/// The turn ends unless a conversation is returned.
async fn load(
    s: &AppState,
    turn: BrowseTurn,
    id: &str,
) -> Result<(Conversation, BrowseTurn), ApiError> {
    let mut turn = turn;
    let ttl = s.config.browse_ttl.as_millis() as u64;
    match turn.stored.take() {
        Some((body, at)) if now_ms().saturating_sub(at) <= ttl => {
            match serde_json::from_str(&body) {
                Ok(conv) => Ok((conv, turn)),
                Err(e) => {
                    turn.release().await;
                    Err(ApiError::Internal(format!(
                        "stored browse session is corrupt: {e}"
                    )))
                }
            }
        }
        Some(_) => {
            turn.delete().await?;
            Err(expired(id))
        }
        None => {
            turn.release().await;
            Err(expired(id))
        }
    }
}

fn to_body(conv: &Conversation) -> Result<String, ApiError> {
    serde_json::to_string(conv).map_err(|e| ApiError::Internal(e.to_string()))
}

fn expired(id: &str) -> ApiError {
    ApiError::NotFound(format!(
        "Browse session \"{id}\" does not exist or has expired; start again with a \"task\" message"
    ))
}

/// Handles one message of conversation `id` (`None`: none yet).
/// Returns the session id and the answer; the conversation is stored
/// before the answer is sent, and left as it was on any error.
async fn handle(
    s: &AppState,
    id: Option<&str>,
    req: Request,
) -> Result<(String, Answer), ApiError> {
    match &req {
        Request::Task {
            action,
            url,
            accepts,
            ..
        } => {
            let id = uuid::Uuid::new_v4().to_string();
            let mut conv = Conversation::new(action, url.as_deref());
            conv.accepts = accepts.clone();
            let (conv, answer) = decide(s, conv, req).await?;
            s.store
                .create_browse(&id, to_body(&conv)?, now_ms())
                .await?;
            Ok((id, answer))
        }
        Request::State { .. } => {
            let id = id.ok_or_else(|| {
                ApiError::BadRequest(
                    "A \"state\" message needs a conversation: send \"task\" first (over HTTP, send back \
                     the Browse-Session header its answer carried)"
                        .into(),
                )
            })?;
            // This process's lock, then the store's (the conversation's row
            // on PostgreSQL: one message at a time across replicas).
            let lock = s.browse_locks.get(id);
            let _turn = lock.lock().await;
            let (conv, turn) = load(s, s.store.browse_turn(id).await?, id).await?;
            if conv.finished {
                turn.release().await;
                return Err(ApiError::Conflict(format!(
                    "Browse session \"{id}\" has finished; send a new \"task\" to start another"
                )));
            }
            // On an error the turn is dropped, which releases it unchanged.
            let (conv, answer) = decide(s, conv, req).await?;
            turn.save(to_body(&conv)?, now_ms()).await?;
            Ok((id.to_string(), answer))
        }
    }
}

fn answer_response(id: &str, a: &Answer) -> Response {
    let mut r = (StatusCode::OK, a.to_json()).into_response();
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    if let Ok(v) = HeaderValue::from_str(id) {
        h.insert(SESSION_HEADER, v);
    }
    r
}

/// `POST /browse`.
pub async fn post(
    State(s): State<AppState>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let req = parse(&s, &body.0)?;
    let id = match headers.get(SESSION_HEADER) {
        None => None,
        Some(v) => Some(v.to_str().map_err(|_| {
            ApiError::BadRequest("The Browse-Session header is not valid text".into())
        })?),
    };
    let (id, answer) = handle(&s, id, req).await?;
    Ok(answer_response(&id, &answer))
}

/// `GET /browse` with `Upgrade: websocket`; a plain GET is told how to
/// connect, in the server's error format.
pub async fn ws(
    State(s): State<AppState>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let upgrade = match upgrade {
        Ok(u) => u,
        Err(e) => {
            return ApiError::BadRequest(format!(
                "GET /browse is the WebSocket endpoint ({e}): connect with `Upgrade: websocket`, \
                 or POST each message to /browse"
            ))
            .into_response()
        }
    };
    let limit = s.config.max_body_bytes;
    upgrade
        .max_message_size(limit)
        .max_frame_size(limit)
        .on_upgrade(move |socket| conversation(s, socket))
}

/// The error body a client of the HTTP route would get, as one text frame.
async fn error_frame(e: ApiError) -> String {
    let body = e.into_response().into_body();
    match to_bytes(body, usize::MAX).await {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(_) => "{\"error\":\"Internal server error\",\"message\":\"unreadable error\"}".into(),
    }
}

/// One WebSocket connection = one conversation (a new `task` starts over).
async fn conversation(s: AppState, mut socket: WebSocket) {
    let mut session: Option<String> = None;
    while let Some(Ok(msg)) = socket.recv().await {
        let bytes = match msg {
            Message::Text(t) => t.as_bytes().to_vec(),
            Message::Binary(b) => b.to_vec(),
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        let reply = match parse(&s, &bytes) {
            Err(e) => error_frame(e).await,
            Ok(req) => {
                let is_task = matches!(req, Request::Task { .. });
                if is_task {
                    if let Some(old) = session.take() {
                        let _ = s.store.delete_browse(&old).await;
                    }
                }
                let current = session.clone();
                match handle(&s, current.as_deref(), req).await {
                    Ok((id, a)) => {
                        session = Some(id);
                        a.to_json()
                    }
                    Err(e) => error_frame(e).await,
                }
            }
        };
        if socket.send(Message::Text(reply.into())).await.is_err() {
            break;
        }
    }
    if let Some(id) = session {
        let _ = s.store.delete_browse(&id).await;
    }
}
