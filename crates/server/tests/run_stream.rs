//! `GET /agent/run/:runId/stream` (docs/server.md "The live run stream")
//! over a real WebSocket, against the database the suite runs on: every
//! event of a run in order with its number, `since` resuming without a gap
//! or a repeat, the stream closing after the run's last event, the same
//! guard as every route, and a stopping server closing it (1001).
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use futures_util::StreamExt;
use sentience_agent::ScorerPolicy;
use sentience_guard::GuardConfig;
use sentience_server::ServerConfig;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{self, Message};

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

const TASK: &str = "Log in as \"alice\" with password \"s3cret\"";

async fn open(
    srv: &TestServer,
    id: &str,
    query: &str,
    headers: &[(&'static str, &str)],
) -> Result<Ws, u16> {
    let url = format!(
        "{}/agent/run/{id}/stream{query}",
        srv.base.replacen("http://", "ws://", 1)
    );
    let mut req = url.into_client_request().unwrap();
    for (k, v) in headers {
        req.headers_mut().insert(*k, v.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(req).await {
        Ok((ws, _)) => Ok(ws),
        Err(tungstenite::Error::Http(res)) => Err(res.status().as_u16()),
        Err(e) => panic!("handshake failed otherwise: {e}"),
    }
}

/// The next event, or the close frame's code once the server closed.
async fn next(ws: &mut Ws) -> Result<Value, Option<CloseCode>> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a frame within 10 s");
        match msg {
            Some(Ok(Message::Text(t))) => return Ok(serde_json::from_str(&t).unwrap()),
            Some(Ok(Message::Close(f))) => return Err(f.map(|f| f.code)),
            None => return Err(None),
            Some(Ok(_)) => {}
            Some(Err(e)) => panic!("stream failed: {e}"),
        }
    }
}

async fn drain(ws: &mut Ws) -> (Vec<Value>, Option<CloseCode>) {
    let mut out = Vec::new();
    loop {
        match next(ws).await {
            Ok(e) => out.push(e),
            Err(code) => return (out, code),
        }
    }
}

fn kinds(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["type"].as_str().unwrap()).collect()
}

fn page(text: &str) -> Value {
    let mut p = login_page();
    p["visibleText"] = json!(text);
    p
}

#[tokio::test]
async fn a_run_streams_every_event_in_order_and_the_stream_ends_with_the_run() {
    let srv = spawn().await;
    let id = srv.start(TASK, "autonomous").await;
    let mut ws = open(&srv, &id, "", &[]).await.unwrap();
    let created = next(&mut ws).await.unwrap();
    assert_eq!(created["type"], "run_created");
    assert_eq!(
        (
            created["seq"].clone(),
            created["runId"].clone(),
            created["task"].clone(),
            created["mode"].clone()
        ),
        (json!(1), json!(id), json!(TASK), json!("autonomous"))
    );
    let mut answers = Vec::new();
    for text in [
        "Welcome back! Please log in.",
        "Please log in.",
        "Please log in.",
        "Welcome, alice! You are logged in.",
    ] {
        answers.push(srv.step(&id, page(text), ok()).await);
    }
    assert_eq!(answers[3]["action"], "finish", "{answers:?}");
    let (events, close) = drain(&mut ws).await;
    assert_eq!(close, Some(CloseCode::Normal));
    let all: Vec<Value> = std::iter::once(created).chain(events).collect();
    let seqs: Vec<i64> = all.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
    assert_eq!(seqs, (1..=all.len() as i64).collect::<Vec<_>>());
    assert_eq!(
        kinds(&all),
        [
            "run_created",
            "step_started",
            "tool_proposed",
            "status_changed",
            "step_started",
            "tool_proposed",
            "step_started",
            "tool_proposed",
            "step_started",
            "finish",
            "status_changed"
        ]
    );
    // Each event carries the run's state after its turn, and what the
    // client needs without another request.
    assert_eq!(
        all[1]["page"],
        json!({"url": "http://127.0.0.1:9/login.html", "title": "Login", "elements": 4})
    );
    assert_eq!(all[1]["lastActionResult"], ok());
    assert_eq!(all[2]["tool"], answers[0]["tool"]);
    // What a person reads: the element's label, not only its id.
    assert_eq!(all[2]["target"], "Username", "{}", all[2]);
    assert_eq!(
        (all[2]["step"].clone(), all[2]["status"].clone()),
        (json!(1), json!("running"))
    );
    assert_eq!(
        (all[3]["from"].clone(), all[3]["to"].clone()),
        (json!("created"), json!("running"))
    );
    assert_eq!(all[9]["result"], answers[3]["result"]);
    assert_eq!(
        (all[10]["to"].clone(), all[10]["status"].clone()),
        (json!("completed"), json!("completed"))
    );
    assert!(all
        .iter()
        .all(|e| e["at"].as_u64().is_some_and(|t| t > 1_700_000_000_000)));
    // After the end: a stream from the start replays it all; one from the
    // last event closes at once.
    let mut again = open(&srv, &id, "?since=0", &[]).await.unwrap();
    assert_eq!(drain(&mut again).await.0, all);
    let mut done = open(&srv, &id, "?since=11", &[]).await.unwrap();
    assert_eq!(drain(&mut done).await, (vec![], Some(CloseCode::Normal)));
}

#[tokio::test]
async fn since_resumes_after_the_last_event_received_without_a_gap_or_a_repeat() {
    let srv = spawn().await;
    let id = srv.start(TASK, "autonomous").await;
    srv.step(&id, page("Please log in."), ok()).await;
    let mut ws = open(&srv, &id, "", &[]).await.unwrap();
    let first: Vec<Value> = [next(&mut ws).await.unwrap(), next(&mut ws).await.unwrap()].into();
    drop(ws);
    srv.step(&id, page("Please log in."), ok()).await;
    let mut ws = open(&srv, &id, "?since=2", &[]).await.unwrap();
    let mut rest = Vec::new();
    for _ in 0..4 {
        rest.push(next(&mut ws).await.unwrap());
    }
    let seqs: Vec<i64> = first
        .iter()
        .chain(&rest)
        .map(|e| e["seq"].as_i64().unwrap())
        .collect();
    assert_eq!(seqs, [1, 2, 3, 4, 5, 6]);
    assert_eq!(
        kinds(&rest),
        [
            "tool_proposed",
            "status_changed",
            "step_started",
            "tool_proposed"
        ]
    );
    // Live: an event committed now arrives on the open stream.
    srv.post(&format!("/agent/run/{id}/cancel"), Value::Null)
        .await;
    let (tail, close) = drain(&mut ws).await;
    assert_eq!(kinds(&tail), ["status_changed"]);
    assert_eq!(
        (tail[0]["seq"].clone(), tail[0]["to"].clone()),
        (json!(7), json!("cancelled"))
    );
    assert_eq!(close, Some(CloseCode::Normal));
}

/// Steps a careful run until it asks; the events of its stream so far.
async fn until_asked(srv: &TestServer, id: &str) {
    for _ in 0..5 {
        if srv.step(id, page("Please log in."), ok()).await["action"] == "ask_user" {
            return;
        }
    }
    panic!("the careful run never asked");
}

#[tokio::test]
async fn careful_mode_streams_the_question_the_answer_and_the_refusal() {
    let srv = spawn().await;
    // Approved: the held action is proposed, and the run goes on.
    let id = srv.start(TASK, "careful").await;
    let mut ws = open(&srv, &id, "", &[]).await.unwrap();
    until_asked(&srv, &id).await;
    srv.answer(&id, true).await;
    srv.post(&format!("/agent/run/{id}/cancel"), Value::Null)
        .await;
    let (events, close) = drain(&mut ws).await;
    assert_eq!(close, Some(CloseCode::Normal));
    let k = kinds(&events);
    let asked = k.iter().position(|t| *t == "question_asked").unwrap();
    let q = &events[asked];
    assert!(
        q["question"].as_str().unwrap().contains("Security check"),
        "{q}"
    );
    assert!(
        q["tool"]["name"].is_string() && q["reason"].is_string(),
        "{q}"
    );
    assert_eq!(k[asked + 1], "status_changed");
    assert_eq!(
        (events[asked + 1]["to"].clone(), q["status"].clone()),
        (json!("waiting_user"), json!("waiting_user"))
    );
    assert_eq!(
        k[asked + 2..],
        [
            "answer_given",
            "tool_proposed",
            "status_changed",
            "status_changed"
        ]
    );
    assert_eq!(events[asked + 2]["approved"], true);
    assert_eq!(
        events[asked + 3]["tool"],
        q["tool"],
        "the held action is proposed"
    );
    assert_eq!(events[asked + 4]["to"], "running");
    assert_eq!(events[asked + 5]["to"], "cancelled");
    // Refused: the run is cancelled and its stream ends.
    let id = srv.start(TASK, "careful").await;
    let mut ws = open(&srv, &id, "", &[]).await.unwrap();
    until_asked(&srv, &id).await;
    srv.answer(&id, false).await;
    let (events, close) = drain(&mut ws).await;
    assert_eq!(close, Some(CloseCode::Normal));
    let k = kinds(&events);
    assert_eq!(k[k.len() - 2..], ["answer_given", "status_changed"]);
    assert_eq!(events[k.len() - 2]["approved"], false);
    assert_eq!(events[k.len() - 1]["to"], "cancelled");
}

#[tokio::test]
async fn the_stream_is_refused_where_every_route_is() {
    let srv = spawn_with(
        ServerConfig {
            guard: GuardConfig {
                keys: vec!["k3y".into()],
                ..GuardConfig::default()
            },
            ..ServerConfig::default()
        },
        Arc::new(ScorerPolicy),
    )
    .await;
    let started = srv
        .client
        .post(format!("{}/agent/run/start", srv.base))
        .bearer_auth("k3y")
        .json(&json!({"task": TASK}))
        .send()
        .await
        .unwrap();
    let id = started.json::<Value>().await.unwrap()["runId"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(open(&srv, &id, "", &[]).await.err(), Some(401));
    assert_eq!(
        open(&srv, &id, "", &[("authorization", "Bearer nope")])
            .await
            .err(),
        Some(401)
    );
    assert_eq!(
        open(
            &srv,
            &id,
            "",
            &[
                ("authorization", "Bearer k3y"),
                ("origin", "https://evil.example")
            ]
        )
        .await
        .err(),
        Some(403)
    );
    // A DNS-rebinding page's upgrade names its own host.
    assert_eq!(
        open(
            &srv,
            &id,
            "",
            &[("authorization", "Bearer k3y"), ("host", "evil.example")]
        )
        .await
        .err()
        .map(|s| s == 403 || s == 421),
        Some(true)
    );
    let mut ws = open(&srv, &id, "", &[("authorization", "Bearer k3y")])
        .await
        .unwrap();
    assert_eq!(next(&mut ws).await.unwrap()["type"], "run_created");
    // A browser's WebSocket cannot set Authorization: it offers the key as
    // a subprotocol (hex of "k3y"), and the server answers "sentience".
    let offered = [("sec-websocket-protocol", "sentience, sentience.key.6b3379")];
    let mut ws = open(&srv, &id, "", &offered).await.unwrap();
    assert_eq!(next(&mut ws).await.unwrap()["type"], "run_created");
    let wrong = [(
        "sec-websocket-protocol",
        "sentience, sentience.key.6e6f7065",
    )];
    assert_eq!(open(&srv, &id, "", &wrong).await.err(), Some(401));
    let auth = [("authorization", "Bearer k3y")];
    assert_eq!(open(&srv, "no-such-run", "", &auth).await.err(), Some(404));
    assert_eq!(open(&srv, &id, "?since=-1", &auth).await.err(), Some(400));
    assert_eq!(open(&srv, &id, "?since=2", &auth).await.err(), Some(400));
    // A plain GET is told how to connect.
    let r = srv
        .client
        .get(format!("{}/agent/run/{id}/stream", srv.base))
        .bearer_auth("k3y")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    let v: Value = r.json().await.unwrap();
    assert!(v["message"].as_str().unwrap().contains("WebSocket"), "{v}");
}

/// A server whose streams look in the store every `poll` besides
/// announcements (3600 s: never, within a test).
async fn polling_every(poll: Duration) -> TestServer {
    let config = ServerConfig {
        stream_poll: poll,
        ..ServerConfig::default()
    };
    spawn_with(config, Arc::new(ScorerPolicy)).await
}

/// A stream that has sent every event of the run's first step, the last
/// of which this process committed (so the hub knows it), and the run's id.
async fn caught_up(srv: &TestServer) -> (Ws, String) {
    let id = srv.start(TASK, "autonomous").await;
    let mut ws = open(srv, &id, "", &[]).await.unwrap();
    assert_eq!(next(&mut ws).await.unwrap()["seq"], 1);
    srv.step(&id, page("Please log in."), ok()).await;
    let mut got = Vec::new();
    while got.len() < 3 {
        got.push(next(&mut ws).await.unwrap());
    }
    assert_eq!(
        kinds(&got),
        ["step_started", "tool_proposed", "status_changed"]
    );
    assert_eq!(got[2]["seq"], 4);
    (ws, id)
}

/// An event stored by another replica whose announcement was lost (the
/// listener was reconnecting).
fn unannounced(id: &str) -> String {
    json!({"seq": 5, "type": "step_started", "runId": id, "step": 2, "at": 1_800_000_000_000u64})
        .to_string()
}

/// After the listener reconnects it pokes every stream, which must then
/// read the store: the hub has only heard of the events this process
/// committed, and would say "nothing new" (a stream stalled for good
/// behind a lost announcement: issue 24, the replica test killed mid-step).
#[tokio::test]
async fn a_poke_finds_events_whose_announcement_was_lost() {
    let srv = polling_every(Duration::from_secs(3600)).await;
    let (mut ws, id) = caught_up(&srv).await;
    srv.db.insert_event(&id, 5, &unannounced(&id)).await;
    srv.state.store.hub().poke_all();
    let e = next(&mut ws).await.unwrap();
    assert_eq!(
        (e["seq"].clone(), e["type"].clone()),
        (json!(5), json!("step_started"))
    );
}

/// A stream opened after the loss reads the store at once, though another
/// stream of the run made the hub's knowledge of it.
#[tokio::test]
async fn a_new_stream_finds_events_whose_announcement_was_lost() {
    let srv = polling_every(Duration::from_secs(3600)).await;
    let (_first, id) = caught_up(&srv).await;
    srv.db.insert_event(&id, 5, &unannounced(&id)).await;
    let mut second = open(&srv, &id, "?since=4", &[]).await.unwrap();
    assert_eq!(next(&mut second).await.unwrap()["seq"], 5);
}

/// Without a poke, the periodic look-up (`stream_poll`) finds them.
#[tokio::test]
async fn the_periodic_look_up_finds_events_whose_announcement_was_lost() {
    let srv = polling_every(Duration::from_secs(1)).await;
    let (mut ws, id) = caught_up(&srv).await;
    srv.db.insert_event(&id, 5, &unannounced(&id)).await;
    let e = next(&mut ws).await.unwrap();
    assert_eq!(e["seq"], 5);
}

/// A replica whose listening connection is cut (a database restart, a
/// proxy's idle timeout) listens again and hears other replicas' commits;
/// `/health` says where the listener is meanwhile.
#[tokio::test]
async fn a_listener_cut_off_listens_again() {
    if postgres_url().is_none() {
        return; // SQLite has no listener: one process writes and hears.
    }
    let srv = polling_every(Duration::from_secs(3600)).await;
    let (mut ws, id) = caught_up(&srv).await;
    let before = srv.db.listeners().await;
    assert_eq!(before.len(), 1, "{before:?}");
    srv.db.cut(&before).await;
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let (_, h) = srv.get("/health").await;
        let state = h["store"]["listener"].clone();
        assert!(
            ["listening", "reconnecting"].contains(&state.as_str().unwrap_or("")),
            "{h}"
        );
        let now = srv.db.listeners().await;
        if state == "listening" && now.len() == 1 && now != before {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "not listening again: {h}, {now:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Stored and announced by "another replica" after the reconnection:
    // only the notification can bring it (the look-up is hourly).
    srv.db.insert_event(&id, 5, &unannounced(&id)).await;
    srv.db.notify(&id, 5).await;
    assert_eq!(next(&mut ws).await.unwrap()["seq"], 5);
}

#[tokio::test]
async fn a_stopping_server_closes_streams_so_clients_reconnect_elsewhere() {
    let srv = spawn().await;
    let id = srv.start(TASK, "autonomous").await;
    let mut ws = open(&srv, &id, "", &[]).await.unwrap();
    assert_eq!(next(&mut ws).await.unwrap()["seq"], 1);
    srv.state.stop();
    assert_eq!(next(&mut ws).await.err(), Some(Some(CloseCode::Away)));
    let (s, h) = srv.get("/health").await;
    assert_eq!((s, h["status"].clone()), (503, json!("stopping")));
}

#[tokio::test]
async fn health_names_the_store_and_its_state() {
    let srv = spawn().await;
    let (s, h) = srv.get("/health").await;
    assert_eq!(s, 200, "{h}");
    let engine = if postgres_url().is_some() {
        "postgres"
    } else {
        "sqlite"
    };
    assert_eq!(h["store"]["engine"], engine, "{h}");
    assert_eq!(h["store"]["status"], "ok", "{h}");
    assert!(h["store"]["latencyMs"].as_f64().is_some(), "{h}");
    if engine == "postgres" {
        // A replica serves once it hears the other replicas' commits.
        assert_eq!(h["store"]["listener"], "listening", "{h}");
    }
}
