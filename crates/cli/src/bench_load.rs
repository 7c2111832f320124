//! `sentience bench-server`'s load generator: one thread, one minimal
//! keep-alive HTTP/1.1 connection per run (a few µs of CPU per request, so
//! the figures are the server's), closed or paced load, and optionally a
//! live stream (`GET /agent/run/:id/stream`) per run whose events' delivery
//! latency is measured: from the event's `at` (taken as its turn commits,
//! in whole milliseconds) to its arrival here, on the same clock.

use anyhow::{bail, Context};
use futures::StreamExt;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

pub fn pct(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// A minimal keep-alive HTTP/1.1 client connection: one request at a time,
/// responses framed by Content-Length (as the server sends them).
pub struct Conn {
    io: BufReader<TcpStream>,
    host: String,
    buf: Vec<u8>,
}

impl Conn {
    pub async fn open(addr: &str) -> anyhow::Result<Conn> {
        let s = TcpStream::connect(addr).await?;
        s.set_nodelay(true)?;
        Ok(Conn {
            io: BufReader::new(s),
            host: addr.to_string(),
            buf: Vec::with_capacity(8192),
        })
    }

    pub async fn post(&mut self, path: &str, body: &[u8]) -> anyhow::Result<(u16, Vec<u8>)> {
        self.buf.clear();
        self.buf.extend_from_slice(
            format!(
                "POST {path} HTTP/1.1\r\nhost: {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
                self.host,
                body.len()
            )
            .as_bytes(),
        );
        self.buf.extend_from_slice(body);
        self.io.get_mut().write_all(&self.buf).await?;
        let mut line = String::new();
        self.io.read_line(&mut line).await?;
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .with_context(|| format!("bad status line {line:?}"))?;
        let mut len = None;
        loop {
            line.clear();
            if self.io.read_line(&mut line).await? == 0 {
                bail!("connection closed mid-response");
            }
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some((k, v)) = l.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    len = v.trim().parse::<usize>().ok();
                }
            }
        }
        let len = len.context("response without Content-Length")?;
        let mut out = vec![0; len];
        self.io.read_exact(&mut out).await?;
        Ok((status, out))
    }

    pub async fn start(&mut self) -> anyhow::Result<String> {
        let body =
            json!({"task": "Log in as \"alice\" with password \"s3cret\"", "mode": "autonomous"});
        let (status, out) = self
            .post("/agent/run/start", &serde_json::to_vec(&body)?)
            .await?;
        anyhow::ensure!(status == 200, "start answered {status}");
        let v: Value = serde_json::from_slice(&out)?;
        v["runId"].as_str().map(str::to_string).context("no runId")
    }
}

/// A small deterministic generator for the pacing jitter.
struct XorShift(u64);

impl XorShift {
    fn unit(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// One measured level.
#[derive(Clone)]
pub struct Level {
    pub runs: usize,
    pub think: Duration,
    pub burst: bool,
    pub requests: usize,
    pub steps_per_run: usize,
    /// Open a stream per run on these addresses (run i on address i % n);
    /// empty: no streams.
    pub streams: Vec<String>,
    /// Where the streams are read: a runtime on a thread of its own, so a
    /// burst of events does not delay the /step clients' sends and reads
    /// (nor they the events' arrival), as two programs would not.
    pub readers: Option<tokio::runtime::Handle>,
}

/// Only the field of a stream event the delivery latency needs (the rest
/// is skipped, not built into a tree).
#[derive(serde::Deserialize)]
struct EventAt {
    at: Option<f64>,
    /// Its number in its run (joined with the servers' commit trace:
    /// bench_commits.rs).
    seq: Option<i64>,
}

/// One /step as the load generator saw it.
#[derive(Clone, Copy)]
pub struct Sample {
    /// When it was sent, ms after the level started.
    pub sent: f64,
    /// Sent → answer read, ms.
    pub latency: f64,
    /// The step's number in its run (0: the run's first).
    pub nth: usize,
}

/// One stream event as the load generator received it.
#[derive(Clone)]
pub struct Arrival {
    /// ms after the level started.
    pub at: f64,
    /// Its `at` → received, ms.
    pub delivery: f64,
    /// Committed before its stream was open.
    pub replay: bool,
    /// Its run and number, and when it was received (wall clock, ms): to
    /// measure its delivery from its commit (`--commit-trace`).
    pub run: Arc<str>,
    pub seq: i64,
    pub received_ms: f64,
}

/// What a level measured.
pub struct Measured {
    /// /step latencies, ms, sorted.
    pub steps: Vec<f64>,
    /// Every /step, in no particular order.
    pub samples: Vec<Sample>,
    /// Paced levels: how late each pause ended (ms past the time asked
    /// for), sorted: the load generator's own scheduling delay, which
    /// also delays reading answers, so it is part of every latency here.
    pub lag: Vec<f64>,
    pub wall: Duration,
    pub runs_started: usize,
    /// Stream delivery latencies of live events (not replays), ms, sorted.
    pub delivery: Vec<f64>,
    /// Every event received.
    pub arrivals: Vec<Arrival>,
}

fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1e3)
}

/// Reads a run's stream until the server closes it, recording each event's
/// delivery latency, and whether it was committed before the stream was
/// open (a replay of the run's history, e.g. the run's creation, whose
/// "latency" is mostly how long this client took to connect: not counted
/// as delivery).
async fn watch(
    addr: String,
    id: String,
    out: Arc<Mutex<Vec<Arrival>>>,
    t0: Instant,
    open: tokio::sync::oneshot::Sender<()>,
) -> anyhow::Result<()> {
    let url = format!("ws://{addr}/agent/run/{id}/stream");
    let (mut ws, _) = async_tungstenite::tokio::connect_async(url).await?;
    let connected = now_ms();
    let _ = open.send(());
    let mut mine = Vec::new();
    let run: Arc<str> = id.as_str().into();
    while let Some(msg) = ws.next().await {
        match msg? {
            async_tungstenite::tungstenite::Message::Text(t) => {
                let got = now_ms();
                let v: EventAt = serde_json::from_str(&t)?;
                if let Some(at) = v.at {
                    mine.push(Arrival {
                        at: t0.elapsed().as_secs_f64() * 1e3,
                        delivery: (got - at).max(0.0),
                        // `at` is in whole ms, taken just before the commit:
                        // an event numbered in the ms the stream opened
                        // counts as live.
                        replay: at < connected - 1.0,
                        run: run.clone(),
                        seq: v.seq.unwrap_or(-1),
                        received_ms: got,
                    });
                }
            }
            async_tungstenite::tungstenite::Message::Close(_) => break,
            _ => {}
        }
    }
    out.lock().unwrap_or_else(|e| e.into_inner()).extend(mine);
    Ok(())
}

pub async fn level(addr: &str, body: Arc<Vec<u8>>, l: Level) -> anyhow::Result<Measured> {
    let left = Arc::new(AtomicUsize::new(l.requests));
    let started = Arc::new(AtomicUsize::new(0));
    let delivery = Arc::new(Mutex::new(Vec::new()));
    let streams = Arc::new(l.streams);
    let readers = l.readers.unwrap_or_else(tokio::runtime::Handle::current);
    let t0 = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..l.runs {
        let (addr, body, left, started, delivery, streams) = (
            addr.to_string(),
            body.clone(),
            left.clone(),
            started.clone(),
            delivery.clone(),
            streams.clone(),
        );
        let readers = readers.clone();
        let (think, burst, c, per_run) = (l.think, l.burst, l.runs, l.steps_per_run);
        tasks.push(tokio::spawn(async move {
            let mut rng = XorShift(
                0x9E37_79B9_7F4A_7C15 ^ (i as u64 + 1).wrapping_mul(0xA24B_AED4_963E_E407),
            );
            let mut conn = Conn::open(&addr).await?;
            let mut lat = Vec::new();
            let mut lag = Vec::new();
            let mut watchers = Vec::new();
            if !think.is_zero() && !burst {
                // Spread the runs' first steps over one pause.
                tokio::time::sleep(think.mul_f64(i as f64 / c as f64)).await;
            }
            'outer: loop {
                let id = conn.start().await?;
                started.fetch_add(1, Ordering::Relaxed);
                if !streams.is_empty() {
                    let at = streams[i % streams.len()].clone();
                    let (open, opened) = tokio::sync::oneshot::channel();
                    watchers.push(readers.spawn(watch(at, id.clone(), delivery.clone(), t0, open)));
                    // The run steps once its stream is open, as a client
                    // that watches its run does: its step events are then
                    // live, not a replay of history (a failed connect is
                    // reported when the watcher is awaited).
                    let _ = opened.await;
                }
                let path = format!("/agent/run/{id}/step");
                let mut done = false;
                for nth in 0..per_run {
                    if left
                        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                        .is_err()
                    {
                        done = true;
                        break;
                    }
                    let t = Instant::now();
                    let (status, _) = conn.post(&path, &body).await?;
                    anyhow::ensure!(status == 200, "step answered {status}");
                    lat.push(Sample {
                        sent: t.duration_since(t0).as_secs_f64() * 1e3,
                        latency: t.elapsed().as_secs_f64() * 1e3,
                        nth,
                    });
                    if !think.is_zero() {
                        let pause = if burst {
                            think
                        } else {
                            think.mul_f64(0.75 + 0.5 * rng.unit())
                        };
                        let asked = Instant::now() + pause;
                        tokio::time::sleep_until(asked.into()).await;
                        lag.push(Instant::now().duration_since(asked).as_secs_f64() * 1e3);
                    }
                }
                if !streams.is_empty() {
                    // Ends the run, and so its stream (not timed).
                    conn.post(&format!("/agent/run/{id}/cancel"), b"").await?;
                }
                if done {
                    break 'outer;
                }
            }
            for w in watchers {
                w.await??;
            }
            anyhow::Ok((lat, lag))
        }));
    }
    let (mut samples, mut lag) = (Vec::new(), Vec::new());
    for t in tasks {
        let (s, l) = t.await??;
        samples.extend(s);
        lag.extend(l);
    }
    let wall = t0.elapsed();
    let mut steps: Vec<f64> = samples.iter().map(|s| s.latency).collect();
    steps.sort_by(f64::total_cmp);
    lag.sort_by(f64::total_cmp);
    let arrivals = std::mem::take(&mut *delivery.lock().unwrap_or_else(|e| e.into_inner()));
    let mut delivery: Vec<f64> = arrivals
        .iter()
        .filter(|a| !a.replay)
        .map(|a| a.delivery)
        .collect();
    delivery.sort_by(f64::total_cmp);
    Ok(Measured {
        steps,
        samples,
        lag,
        wall,
        runs_started: started.load(Ordering::Relaxed),
        delivery,
        arrivals,
    })
}
