//! `sentience bench-server`: the agent server's own overhead per /step with
//! the built-in scorer (no LLM), at several numbers of concurrent runs, over
//! real HTTP on loopback, with the run database on disk. Prints p50 / p99
//! latency, throughput, and memory (RSS) per idle run. Request counts are
//! bounded so it ends in well under a minute. Client and server share the
//! machine, so the figures are an upper bound on the server's cost.

use anyhow::Context;
use sentience_agent::ScorerPolicy;
use sentience_server::{AppState, ServerConfig, Store};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Concurrent runs to measure at.
    #[arg(long, value_delimiter = ',', default_value = "1,50,500")]
    concurrency: Vec<usize>,
    /// /step requests per concurrency level.
    #[arg(long, default_value_t = 3000)]
    requests: usize,
    /// Steps per run before a worker starts a fresh run.
    #[arg(long, default_value_t = 10)]
    steps_per_run: usize,
    /// Idle runs created to measure memory per run.
    #[arg(long, default_value_t = 2000)]
    idle_runs: usize,
    /// Paced mode: pause between a run's steps, as the extension does while
    /// it executes the tool and takes the next snapshot.
    #[arg(long, default_value_t = 100)]
    think_ms: u64,
}

/// A login page like the extension sends: 3 form controls and 37 links.
fn snapshot() -> Value {
    let mut elements = vec![
        json!({"id": "agent-1", "tag": "input", "type": "text", "placeholder": "Username", "name": "username"}),
        json!({"id": "agent-2", "tag": "input", "type": "password", "placeholder": "Password", "name": "password"}),
        json!({"id": "agent-3", "tag": "button", "text": "Log in"}),
    ];
    for i in 4..=40 {
        elements.push(json!({"id": format!("agent-{i}"), "tag": "a", "text": format!("Article number {i}"), "href": format!("/a/{i}")}));
    }
    json!({"url": "http://127.0.0.1/login", "title": "Login", "visibleText": "Please log in to continue. ".repeat(40),
           "elements": elements, "timestamp": 1_737_292_800_000u64})
}

fn rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

fn pct(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

async fn start(client: &reqwest::Client, base: &str) -> anyhow::Result<String> {
    let v: Value = client
        .post(format!("{base}/agent/run/start"))
        .json(
            &json!({"task": "Log in as \"alice\" with password \"s3cret\"", "mode": "autonomous"}),
        )
        .send()
        .await?
        .json()
        .await?;
    v["runId"].as_str().map(str::to_string).context("no runId")
}

async fn level(
    client: reqwest::Client,
    base: String,
    body: Arc<Vec<u8>>,
    c: usize,
    a: &Args,
    think: Duration,
) -> anyhow::Result<()> {
    // Paced levels are also bounded to 20 steps per run, so they end quickly.
    let requests = if think.is_zero() {
        a.requests
    } else {
        a.requests.min(c * 20)
    };
    let left = Arc::new(AtomicUsize::new(requests));
    let t0 = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..c {
        let (client, base, body, left) = (client.clone(), base.clone(), body.clone(), left.clone());
        let per_run = a.steps_per_run;
        tasks.push(tokio::spawn(async move {
            let mut lat = Vec::new();
            'outer: loop {
                let id = start(&client, &base).await?;
                for _ in 0..per_run {
                    if left
                        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                        .is_err()
                    {
                        break 'outer;
                    }
                    let t = Instant::now();
                    let r = client
                        .post(format!("{base}/agent/run/{id}/step"))
                        .header("content-type", "application/json")
                        .body(body.as_ref().clone())
                        .send()
                        .await?;
                    anyhow::ensure!(r.status().is_success(), "step answered {}", r.status());
                    r.bytes().await?;
                    lat.push(t.elapsed());
                    if !think.is_zero() {
                        tokio::time::sleep(think).await;
                    }
                }
            }
            anyhow::Ok(lat)
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await??);
    }
    let wall = t0.elapsed();
    all.sort();
    println!(
        "{:>6} | {c:>5} runs | {:>6} steps | p50 {:>7.3} ms | p99 {:>7.3} ms | {:>7.0} steps/s",
        if think.is_zero() { "closed" } else { "paced" },
        all.len(),
        pct(&all, 0.50),
        pct(&all, 0.99),
        all.len() as f64 / wall.as_secs_f64()
    );
    Ok(())
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let rt = tokio::runtime::Runtime::new()?;
    rt.block_on(async move {
        let dir = std::env::temp_dir().join(format!("sentience-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let db = dir.join("runs.sqlite3");
        let state = AppState::new(ServerConfig::default(), Store::open(&db)?, Arc::new(ScorerPolicy));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let base = format!("http://{}", listener.local_addr()?);
        let store = state.store.clone();
        tokio::spawn(sentience_server::serve(listener, state));
        let client = reqwest::Client::builder().pool_max_idle_per_host(1024).build()?;
        let body = Arc::new(serde_json::to_vec(&json!({"snapshot": snapshot(), "lastActionResult": {"success": true, "message": "ok"}}))?);
        println!("agent server overhead per /step (built-in scorer, SQLite on disk, loopback HTTP, {} KB snapshot)", body.len() / 1024);
        // Warm-up: connections, SQLite pages, allocator.
        level(client.clone(), base.clone(), body.clone(), 8, &Args { requests: 200, ..clone_args(&a) }, Duration::ZERO).await?;
        // Memory per idle run, measured before the load levels grow the heap:
        // RSS growth while creating runs that each hold a snapshot and a step.
        let before = rss_kb();
        for _ in 0..a.idle_runs {
            let id = start(&client, &base).await?;
            client
                .post(format!("{base}/agent/run/{id}/step"))
                .body(body.as_ref().clone())
                .send()
                .await?
                .bytes()
                .await?;
        }
        let after = rss_kb();
        let db_bytes = std::fs::metadata(&db).map(|m| m.len()).unwrap_or(0)
            + std::fs::metadata(dir.join("runs.sqlite3-wal")).map(|m| m.len()).unwrap_or(0);
        let runs = store.count().await?;
        println!(
            "memory: {:.2} KB RSS growth per idle run ({} runs, RSS {} -> {} KB; runs live in SQLite, not in memory); on disk {:.1} KB per run",
            after.saturating_sub(before) as f64 / a.idle_runs.max(1) as f64,
            a.idle_runs,
            before,
            after,
            db_bytes as f64 / 1024.0 / runs.max(1) as f64
        );
        println!("closed = each run steps again as soon as answered (saturation); paced = {} ms between a run's steps", a.think_ms);
        for &c in &a.concurrency {
            level(client.clone(), base.clone(), body.clone(), c.max(1), &a, Duration::ZERO).await?;
        }
        for &c in &a.concurrency {
            level(client.clone(), base.clone(), body.clone(), c.max(1), &a, Duration::from_millis(a.think_ms)).await?;
        }
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
}

fn clone_args(a: &Args) -> Args {
    Args {
        concurrency: a.concurrency.clone(),
        requests: a.requests,
        steps_per_run: a.steps_per_run,
        idle_runs: a.idle_runs,
        think_ms: a.think_ms,
    }
}
