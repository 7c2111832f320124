//! How `sentience browse` reaches a browse server (docs/browse.md
//! "Transports"): one HTTP `POST /browse` per message, the conversation
//! carried by the `Browse-Session` header, or one WebSocket on `GET /browse`
//! that is the conversation. Both hand back the raw bytes of each answer so
//! browse_wire can check them as they were sent.

use anyhow::{bail, Context, Result};
use async_tungstenite::tokio::{connect_async, ConnectStream};
use async_tungstenite::tungstenite::client::IntoClientRequest;
use async_tungstenite::tungstenite::Message;
use async_tungstenite::WebSocketStream;
use futures::{SinkExt, StreamExt};
use serde_json::Value;
use std::time::Duration;

/// The header naming the conversation over HTTP (docs/browse.md).
pub const SESSION_HEADER: &str = "Browse-Session";

/// A raw answer: HTTP status (200 on the WebSocket) and body bytes.
pub struct RawAnswer {
    pub status: u16,
    pub body: Vec<u8>,
}

pub enum Transport {
    Http {
        client: reqwest::Client,
        url: String,
        session: Option<String>,
    },
    Ws {
        stream: Box<WebSocketStream<ConnectStream>>,
        url: String,
    },
}

fn bearer(key: &str) -> Result<reqwest::header::HeaderValue> {
    let mut v = reqwest::header::HeaderValue::from_str(&format!("Bearer {key}"))
        .context("the server key has characters a header cannot carry")?;
    v.set_sensitive(true);
    Ok(v)
}

/// `http://host:port` (or a full `…/browse` URL) → the `/browse` endpoint.
pub fn endpoint_url(server: &str) -> String {
    let s = server.trim_end_matches('/');
    if s.ends_with("/browse") {
        s.to_string()
    } else {
        format!("{s}/browse")
    }
}

impl Transport {
    pub fn http(server: &str, timeout: Duration, key: Option<&str>) -> Result<Self> {
        let mut headers = reqwest::header::HeaderMap::new();
        if let Some(k) = key {
            headers.insert(reqwest::header::AUTHORIZATION, bearer(k)?);
        }
        Ok(Transport::Http {
            client: reqwest::Client::builder()
                .timeout(timeout)
                .default_headers(headers)
                .build()?,
            url: endpoint_url(server),
            session: None,
        })
    }

    pub async fn ws(server: &str, key: Option<&str>) -> Result<Self> {
        let http = endpoint_url(server);
        let url = if let Some(rest) = http.strip_prefix("https://") {
            format!("wss://{rest}")
        } else if let Some(rest) = http.strip_prefix("http://") {
            format!("ws://{rest}")
        } else {
            http
        };
        let mut request = url
            .as_str()
            .into_client_request()
            .with_context(|| format!("the WebSocket URL {url}"))?;
        if let Some(k) = key {
            request.headers_mut().insert("authorization", bearer(k)?);
        }
        let (stream, _) = connect_async(request)
            .await
            .with_context(|| format!("opening the WebSocket {url}"))?;
        Ok(Transport::Ws {
            stream: Box::new(stream),
            url,
        })
    }

    pub fn describe(&self) -> String {
        match self {
            Transport::Http { url, .. } => format!("HTTP POST {url}"),
            Transport::Ws { url, .. } => format!("WebSocket {url}"),
        }
    }

    /// Sends one request and returns the raw answer. Over HTTP the first
    /// answer's `Browse-Session` header is kept and sent back from then on;
    /// an answer to `task` without it is a protocol violation, as the
    /// following `state` could not name its conversation.
    pub async fn send(&mut self, request: &Value) -> Result<RawAnswer> {
        match self {
            Transport::Http {
                client,
                url,
                session,
            } => {
                let mut req = client.post(url.as_str()).json(request);
                if let Some(id) = session.as_deref() {
                    req = req.header(SESSION_HEADER, id);
                }
                let resp = req.send().await.with_context(|| format!("POST {url}"))?;
                let status = resp.status().as_u16();
                let header = resp
                    .headers()
                    .get(SESSION_HEADER)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string);
                let body = resp.bytes().await.context("reading the answer")?.to_vec();
                if request["endpoint"] == "task" && (200..300).contains(&status) {
                    match header {
                        Some(id) if !id.is_empty() => *session = Some(id),
                        _ => bail!(
                            "protocol violation: the answer to `task` has no {SESSION_HEADER} header, so the next `state` could not name its conversation"
                        ),
                    }
                } else if let Some(id) = header.filter(|id| !id.is_empty()) {
                    *session = Some(id);
                }
                Ok(RawAnswer { status, body })
            }
            Transport::Ws { stream, url } => {
                stream
                    .send(Message::text(request.to_string()))
                    .await
                    .with_context(|| format!("sending on {url}"))?;
                loop {
                    match stream.next().await {
                        Some(Ok(Message::Text(t))) => {
                            return Ok(RawAnswer {
                                status: 200,
                                body: t.as_bytes().to_vec(),
                            })
                        }
                        Some(Ok(Message::Binary(b))) => {
                            return Ok(RawAnswer {
                                status: 200,
                                body: b.to_vec(),
                            })
                        }
                        Some(Ok(Message::Close(frame))) => {
                            let why = frame
                                .map(|f| format!(" ({} {})", u16::from(f.code), f.reason))
                                .unwrap_or_default();
                            bail!("the server closed the WebSocket before answering{why}")
                        }
                        // Pings are answered by the library; pongs and raw frames carry nothing.
                        Some(Ok(_)) => continue,
                        Some(Err(e)) => bail!("the WebSocket failed: {e}"),
                        None => bail!("the server closed the WebSocket before answering"),
                    }
                }
            }
        }
    }

    pub async fn close(self) {
        if let Transport::Ws { mut stream, .. } = self {
            let _ = WebSocketStream::close(&mut *stream, None).await;
        }
    }
}

#[cfg(test)]
mod tests;
