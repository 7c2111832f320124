//! The loopback WebSocket the extension's service worker connects out to
//! (`GET /extension`). In front of it, the project's guard
//! (crates/guard, docs/security.md): `Host` must name this server (DNS
//! rebinding) and a browser's `Origin` must be our extension's own
//! (`chrome-extension://<our id>`): a web page's WebSocket carries the
//! page's origin, which it cannot forge, and is refused before the upgrade.
//! Behind it, the pairing token: the first message must carry it, or the
//! socket is closed (a program on this machine that knows no token gets
//! nothing).

use super::link::Link;
use super::pairing::Pairing;
use super::wire::{FromExtension, ToExtension, CLOSE_BAD_TOKEN, CLOSE_REPLACED};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{middleware, Router};
use futures::{SinkExt, StreamExt};
use sentience_guard::{Guard, GuardConfig, Refusal, EXTENSION_ORIGIN};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// How long the extension has to say hello.
const HELLO_TIMEOUT: Duration = Duration::from_secs(5);
/// A ping this often keeps the extension's service worker awake (Chrome
/// stops an idle worker after 30 s; WebSocket traffic counts as activity).
const PING_EVERY: Duration = Duration::from_secs(20);

#[derive(Clone)]
struct LinkState {
    link: Arc<Link>,
    pairing: Pairing,
}

fn refusal(r: &Refusal, _path: &str) -> Response {
    (r.status(), r.to_string()).into_response()
}

/// The guard of the link: our extension's origin only, loopback names only.
pub fn guard(bound: SocketAddr) -> Guard {
    let guard = Guard::new(
        GuardConfig {
            allowed_origins: vec![EXTENSION_ORIGIN.to_string()],
            ..GuardConfig::default()
        },
        refusal,
    );
    guard.listening_on(bound);
    guard
}

pub fn router(link: Arc<Link>, pairing: Pairing, guard: Guard) -> Router {
    Router::new()
        .route("/extension", get(upgrade))
        .fallback(|| async { (StatusCode::NOT_FOUND, "not found") })
        .layer(middleware::from_fn_with_state(
            guard,
            sentience_guard::enforce,
        ))
        .with_state(LinkState { link, pairing })
}

async fn upgrade(State(s): State<LinkState>, ws: WebSocketUpgrade) -> Response {
    ws.max_message_size(64 << 20)
        .on_upgrade(move |socket| serve(socket, s))
}

async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) {
    let _ = socket
        .send(Message::Close(Some(CloseFrame {
            code,
            reason: reason.into(),
        })))
        .await;
}

fn text(msg: &ToExtension<'_>) -> String {
    serde_json::to_string(msg).unwrap_or_default()
}

async fn serve(mut socket: WebSocket, s: LinkState) {
    // Hello first, with the token, or nothing.
    let hello = tokio::time::timeout(HELLO_TIMEOUT, socket.next()).await;
    let token = match hello {
        Ok(Some(Ok(Message::Text(t)))) => match serde_json::from_str::<FromExtension>(&t) {
            Ok(FromExtension::Hello { token, .. }) => token,
            _ => String::new(),
        },
        _ => String::new(),
    };
    if !s.pairing.accepts(&token) {
        tracing::info!("extension link refused: wrong pairing token");
        close(&mut socket, CLOSE_BAD_TOKEN, "wrong pairing code").await;
        return;
    }
    if socket
        .send(Message::Text(text(&ToExtension::Welcome).into()))
        .await
        .is_err()
    {
        return;
    }
    let (out_tx, mut out_rx) = mpsc::unbounded_channel::<String>();
    let (replaced_tx, mut replaced_rx) = oneshot::channel();
    let number = s.link.attach(out_tx, replaced_tx);
    tracing::info!("the extension is connected");
    let (mut sink, mut stream) = socket.split();
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    loop {
        tokio::select! {
            _ = &mut replaced_rx => {
                let _ = sink.send(Message::Close(Some(CloseFrame { code: CLOSE_REPLACED, reason: "replaced by a newer connection".into() }))).await;
                break;
            }
            out = out_rx.recv() => match out {
                Some(t) => if sink.send(Message::Text(t.into())).await.is_err() { break },
                None => break,
            },
            _ = ping.tick() => {
                if !s.link.send_raw(text(&ToExtension::Ping)) { break }
            }
            msg = stream.next() => match msg {
                Some(Ok(Message::Text(t))) => match serde_json::from_str::<FromExtension>(&t) {
                    Ok(FromExtension::Result { id, ok, value, error }) => {
                        let answer = if ok { Ok(value) } else { Err(error.unwrap_or_else(|| "failed".into())) };
                        s.link.resolve(id, answer);
                    }
                    Ok(_) => {}
                    Err(e) => tracing::warn!("unreadable message from the extension: {e}"),
                },
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => {}
            },
        }
    }
    s.link.detach(number);
    tracing::info!("the extension disconnected");
}
