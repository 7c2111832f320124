//! `GET /agent/run/:runId/stream[?since=SEQ]`: the run's events over a
//! WebSocket, in order, each once (docs/server.md "The live run stream";
//! the event format is `events.rs`).
//!
//! The stream subscribes to the hub first, then reads the stored events
//! after `since` and sends them; each announcement (from this process's
//! commits, or, with PostgreSQL, relayed from other replicas) makes it look
//! again after the last event it sent: in the hub's ring of this process's
//! recent commits when that holds every one of them, else in the store. Because events are read from the
//! store in order of their numbers, an announcement missed, merged or
//! repeated changes only when they arrive, never which. A look-up in the
//! store every `stream_poll`, and one when the hub pokes every stream (its
//! listener reconnected), cover announcements lost between replicas. After the
//! run's last event (its status changing into `completed`, `error` or
//! `cancelled`) the server closes the stream (1000); when the server stops,
//! it closes it with 1001, and the client reconnects (to any replica) with
//! `since` = the last `seq` it received.

use crate::error::ApiError;
use crate::events::ends_run;
use crate::hub::Wake;
use crate::live::Live;
use crate::routes::turns::cached_version;
use crate::state::AppState;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, RawQuery, State};
use axum::response::Response;
use futures_util::SinkExt;
use std::time::Duration;

/// The subprotocol the stream answers with when a client offers it (a
/// browser offers it with `sentience.key.<hex>`: docs/server.md).
const SUBPROTOCOL: &str = "sentience";
/// Events read from the store at a time.
const PAGE: usize = 256;
/// A ping this often keeps idle connections open through proxies (nginx
/// closes a silent proxied connection after 60 s by default).
const PING_EVERY: Duration = Duration::from_secs(25);

/// `since` from the query string: the last event the client has (0: none).
fn since(query: Option<&str>) -> Result<i64, ApiError> {
    let mut since = 0;
    for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        if k == "since" {
            since = v
                .parse::<u64>()
                .ok()
                .and_then(|n| i64::try_from(n).ok())
                .ok_or_else(|| {
                    ApiError::BadRequest(format!(
                        "\"since\" must be the sequence number of an event (0 or more), not {v:?}"
                    ))
                })?;
        }
    }
    Ok(since)
}

pub async fn stream(
    State(s): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let since = since(query.as_deref())?;
    // An unknown run, or a `since` past its last event, is answered over
    // HTTP before upgrading. The run is looked up as GET does: through the
    // cache (with SQLite a cached run needs no read at all; 500 streams
    // opening at once used to parse 500 whole runs on the database thread,
    // ahead of the steps' commits).
    let (updated_at, terminal, last_seq) = {
        let mut slot = s.live.lock(&id).await;
        match s.store.read(&id, cached_version(&s, &slot)).await? {
            None => {
                *slot = None;
                return Err(ApiError::NotFound(format!("Run {id} not found")));
            }
            Some(Some(stored)) => *slot = Some(Live::from(stored)),
            Some(None) => {}
        }
        let live = slot
            .as_ref()
            .ok_or_else(|| ApiError::NotFound(format!("Run {id} not found")))?;
        (
            live.run.updated_at,
            live.run.status.is_terminal(),
            live.last_seq,
        )
    };
    let idle_ms = sentience_agent::time::now_ms().saturating_sub(updated_at);
    if u128::from(idle_ms) > s.config.run_ttl.as_millis() {
        return Err(ApiError::NotFound(format!("Run {id} expired")));
    }
    if since > last_seq {
        return Err(ApiError::BadRequest(format!(
            "\"since\" is {since}, but the last event of run {id} is {last_seq}"
        )));
    }
    let upgrade = upgrade.map_err(|e| {
        ApiError::BadRequest(format!(
            "GET /agent/run/:runId/stream is a WebSocket endpoint ({e}): connect with `Upgrade: websocket`"
        ))
    })?;
    let ended = terminal && since == last_seq;
    // A browser that sent its key as a subprotocol (the guard read it) must
    // be answered with one it offered, or it drops the connection.
    let upgrade = upgrade.protocols([SUBPROTOCOL]);
    Ok(upgrade.on_upgrade(move |socket| pump(s, id, since, ended, socket)))
}

fn close(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: reason.into(),
    }))
}

/// Sends the run's events after `last` until the run ends, the client
/// leaves or the server stops.
async fn pump(s: AppState, id: String, mut last: i64, ended: bool, mut socket: WebSocket) {
    if ended {
        let _ = socket.send(close(1000, "run ended")).await;
        return;
    }
    let mut announced = s.store.hub().subscribe(&id);
    let mut stopping = s.stopping();
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.reset();
    // A new stream's first look is in the store too: another stream of the
    // run may have made the hub's knowledge of it, and that may lack a
    // lost announcement.
    let mut look_in_store = true;
    loop {
        if *stopping.borrow_and_update() {
            let _ = socket
                .send(close(1001, "server stopping: reconnect with since"))
                .await;
            return;
        }
        // This process's own commits come from memory; anything else (an
        // older event, another replica's) from the store. A periodic
        // look-up or a poke reads the store whatever the hub knows: they
        // exist for announcements that never came, which the hub cannot
        // know of (it would answer "nothing after `last`" for ever).
        let recent = if look_in_store {
            None
        } else {
            s.store.hub().recent_after(&id, last)
        };
        look_in_store = false;
        let recent_was_some = recent.is_some();
        let events = match recent {
            Some(e) => Ok(e),
            None => s.store.events(&id, last, PAGE).await,
        };
        let events = match events {
            Ok(e) => e,
            Err(e) => {
                tracing::warn!(error = %e, run_id = %id, "stream could not read events");
                let _ = socket
                    .send(close(1011, "cannot read the run's events"))
                    .await;
                return;
            }
        };
        let full = events.len() == PAGE;
        // Where a slow delivery waited (docs/benchmarks.md "Agent server"):
        // the first event's `at` (taken as its turn numbered it, before the
        // commit) to this wake-up, then to the flushed write.
        let traced = tracing::enabled!(tracing::Level::TRACE) && !events.is_empty();
        let first_at = events.first().and_then(|e| event_at(&e.json));
        let from_ring = recent_was_some;
        let (count, woke) = (events.len(), std::time::Instant::now());
        let woke_ms = if traced {
            sentience_agent::time::now_ms()
        } else {
            0
        };
        // A turn's events go out in one write (a step makes 3–5), not one
        // flush each.
        let mut end = false;
        for e in events {
            end = ends_run(&e.json);
            if socket.feed(Message::Text(e.json.into())).await.is_err() {
                return;
            }
            last = e.seq;
            if end {
                break;
            }
        }
        if socket.flush().await.is_err() {
            return;
        }
        if traced {
            tracing::trace!(
                events = count,
                from_ring,
                age_at_wake_ms = first_at.map_or(0, |a| woke_ms.saturating_sub(a)),
                write_us = woke.elapsed().as_micros() as u64,
                "stream sent"
            );
        }
        if end {
            let _ = socket.send(close(1000, "run ended")).await;
            return;
        }
        if full {
            continue;
        }
        tokio::select! {
            wake = announced.changed() => look_in_store = wake == Wake::LookAgain,
            () = tokio::time::sleep(s.config.stream_poll) => look_in_store = true,
            _ = ping.tick() => {
                if socket.send(Message::Ping(Vec::new().into())).await.is_err() {
                    return;
                }
            }
            msg = socket.recv() => match msg {
                // Clients have nothing to say; pongs and stray frames are ignored.
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => {}
            },
            _ = stopping.changed() => {}
        }
    }
}

/// An event's `at` (ms since the epoch) from its JSON text (tracing only).
fn event_at(json: &str) -> Option<u64> {
    let rest = &json[json.find("\"at\":")? + 5..];
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}
