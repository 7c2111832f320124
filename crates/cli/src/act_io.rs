//! The native doors of crates/hands for `sentience act`: reqwest for HTTP,
//! tokio for the clock, and time spent waiting on I/O added up so the step
//! report can tell our logic's time from the servers'.

use sentience_hands::io::{Clock, Http, Method, Request, Response, TransportError};
use serde_json::Value;
use std::cell::Cell;
use std::time::{Duration, Instant};

pub struct ReqwestHttp {
    client: reqwest::Client,
    /// Wall time spent inside `send` (HTTP round trips, the servers' work).
    pub io: Cell<Duration>,
    pub calls: Cell<u32>,
}

impl ReqwestHttp {
    pub fn new() -> anyhow::Result<Self> {
        Ok(ReqwestHttp {
            client: reqwest::Client::builder()
                .timeout(Duration::from_secs(60))
                .build()?,
            io: Cell::new(Duration::ZERO),
            calls: Cell::new(0),
        })
    }
}

impl Http for ReqwestHttp {
    async fn send(&self, req: Request) -> Result<Response, TransportError> {
        let start = Instant::now();
        let mut b = match req.method {
            Method::Get => self.client.get(&req.url),
            Method::Post => self.client.post(&req.url),
        };
        for (k, v) in &req.headers {
            b = b.header(k, v);
        }
        if let Some(body) = &req.body {
            b = b.json(body);
        }
        let out = async {
            let resp = b.send().await.map_err(|e| TransportError(e.to_string()))?;
            let status = resp.status().as_u16();
            let bytes = resp
                .bytes()
                .await
                .map_err(|e| TransportError(e.to_string()))?;
            let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
            Ok(Response { status, body })
        }
        .await;
        self.io.set(self.io.get() + start.elapsed());
        self.calls.set(self.calls.get() + 1);
        out
    }
}

pub struct TokioClock {
    origin: Instant,
    /// Time spent in deliberate waits (backoff, settling), not our logic.
    pub slept: Cell<Duration>,
}

impl TokioClock {
    pub fn new() -> Self {
        TokioClock {
            origin: Instant::now(),
            slept: Cell::new(Duration::ZERO),
        }
    }
}

impl Clock for TokioClock {
    fn now_ms(&self) -> f64 {
        self.origin.elapsed().as_secs_f64() * 1000.0
    }
    async fn sleep(&self, ms: u64) {
        let start = Instant::now();
        tokio::time::sleep(Duration::from_millis(ms)).await;
        self.slept.set(self.slept.get() + start.elapsed());
    }
}
