//! `sentience bench-server`: the agent server's own overhead per /step with
//! the built-in scorer (no LLM), at several numbers of concurrent runs, over
//! real HTTP on loopback, with the run database on disk.
//!
//! The server is a child process (`sentience serve --port 0 --db <tmp>`,
//! this same executable), so it has its own runtime and threads and the
//! figures are the server's: the load generator here is a minimal
//! keep-alive HTTP/1.1 client on one thread (one connection per run), cheap
//! next to the server's work. It still shares the machine's cores with the
//! server. `--in-process` runs the server inside this process instead (the
//! old set-up), for comparison.
//!
//! Two load shapes per concurrency level:
//! - closed: each run steps again as soon as it is answered (saturation:
//!   latency = runs / throughput, by Little's law);
//! - paced: each run pauses `--think-ms` (±25 %) between steps, as an agent
//!   does while the browser executes the tool and takes the next snapshot;
//!   runs start spread over one pause, so they are not phase-locked
//!   (`--burst` starts them all at once and keeps them in step).
//!
//! Prints p50 / p99 latency, throughput, the server's CPU time per step, and
//! the server's memory (RSS) per idle run. Request counts are bounded so it
//! ends in well under a minute.

use anyhow::{bail, Context};
use sentience_agent::ScorerPolicy;
use sentience_server::{AppState, ServerConfig, Store};
use serde_json::{json, Value};
use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

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
    /// Paced mode: start every run at once and keep them in step (bursts of
    /// N simultaneous steps every pause) instead of spreading them out.
    #[arg(long)]
    burst: bool,
    /// Paced levels: steps per run (bounds how long a paced level lasts).
    #[arg(long, default_value_t = 20)]
    paced_steps: usize,
    /// Only closed-loop levels, or only paced levels.
    #[arg(long, value_parser = ["closed", "paced", "both"], default_value = "both")]
    modes: String,
    /// Serve from inside this process (server and load generator share one
    /// process) instead of a child `sentience serve`.
    #[arg(long, conflicts_with = "server_exe")]
    in_process: bool,
    /// Executable to run as `<exe> serve …` (default: this one), e.g. an
    /// older build, to compare servers under the same load generator.
    #[arg(long)]
    server_exe: Option<std::path::PathBuf>,
}

/// The process serving the requests: a child, or this process.
struct Server {
    addr: String,
    pid: u32,
    child: Option<Child>,
    db_dir: std::path::PathBuf,
    /// Keeps the in-process server's runtime alive.
    _rt: Option<tokio::runtime::Runtime>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(c) = &mut self.child {
            let _ = c.kill();
            let _ = c.wait();
        }
        let _ = std::fs::remove_dir_all(&self.db_dir);
    }
}

fn spawn_server(in_process: bool, exe: Option<&std::path::Path>) -> anyhow::Result<Server> {
    let dir = std::env::temp_dir().join(format!("sentience-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let db = dir.join("runs.sqlite3");
    if in_process {
        let rt = tokio::runtime::Runtime::new()?;
        let addr = rt.block_on(async {
            let state = AppState::new(
                ServerConfig::default(),
                Store::open(&db)?,
                Arc::new(ScorerPolicy),
            );
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
            let addr = listener.local_addr()?.to_string();
            tokio::spawn(sentience_server::serve(listener, state));
            anyhow::Ok(addr)
        })?;
        return Ok(Server {
            addr,
            pid: std::process::id(),
            child: None,
            db_dir: dir,
            _rt: Some(rt),
        });
    }
    let exe = match exe {
        Some(e) => e.to_path_buf(),
        None => std::env::current_exe().context("locating the sentience executable")?,
    };
    let mut child = Command::new(exe)
        .args(["serve", "--port", "0", "--host", "127.0.0.1", "--db"])
        .arg(&db)
        .env(
            "RUST_LOG",
            std::env::var("RUST_LOG").unwrap_or_else(|_| "warn".into()),
        )
        .env_remove("LLM_API_KEY")
        .env_remove("SENTIENCE_API_KEY")
        .env_remove("S2_PORT")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .context("starting `sentience serve`")?;
    let pid = child.id();
    let out = child.stdout.take().context("no stdout")?;
    let mut line = String::new();
    std::io::BufReader::new(out).read_line(&mut line)?;
    // From here on, dropping `server` stops the child.
    let mut server = Server {
        addr: String::new(),
        pid,
        child: Some(child),
        db_dir: dir,
        _rt: None,
    };
    let Some(addr) = line.trim().strip_prefix("listening on http://") else {
        bail!("unexpected first line from `sentience serve`: {line:?}");
    };
    server.addr = addr.to_string();
    Ok(server)
}

/// `VmRSS` of a process, in KB.
fn rss_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

/// CPU time (user + system) a process has used so far.
fn cpu_time(pid: u32) -> Duration {
    let ticks = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            // Fields after the parenthesised command name; utime and stime
            // are fields 14 and 15 of the whole line.
            let rest = s.rsplit_once(')')?.1;
            let f: Vec<&str> = rest.split_whitespace().collect();
            Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
        })
        .unwrap_or(0);
    // USER_HZ is 100 on Linux.
    Duration::from_millis(ticks * 10)
}

fn pct(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

/// A minimal keep-alive HTTP/1.1 client connection: one request at a time,
/// responses framed by Content-Length (as the server sends them).
struct Conn {
    io: BufReader<TcpStream>,
    host: String,
    buf: Vec<u8>,
}

impl Conn {
    async fn open(addr: &str) -> anyhow::Result<Conn> {
        let s = TcpStream::connect(addr).await?;
        s.set_nodelay(true)?;
        Ok(Conn {
            io: BufReader::new(s),
            host: addr.to_string(),
            buf: Vec::with_capacity(8192),
        })
    }

    async fn post(&mut self, path: &str, body: &[u8]) -> anyhow::Result<(u16, Vec<u8>)> {
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

    async fn start(&mut self) -> anyhow::Result<String> {
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

struct Level {
    c: usize,
    think: Duration,
    burst: bool,
    requests: usize,
    steps_per_run: usize,
}

async fn level(server: &Server, body: Arc<Vec<u8>>, l: Level) -> anyhow::Result<()> {
    let left = Arc::new(AtomicUsize::new(l.requests));
    let started = Arc::new(AtomicUsize::new(0));
    let cpu0 = cpu_time(server.pid);
    let t0 = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..l.c {
        let (addr, body, left, started) = (
            server.addr.clone(),
            body.clone(),
            left.clone(),
            started.clone(),
        );
        let (think, burst, c, per_run) = (l.think, l.burst, l.c, l.steps_per_run);
        tasks.push(tokio::spawn(async move {
            let mut rng = XorShift(
                0x9E37_79B9_7F4A_7C15 ^ (i as u64 + 1).wrapping_mul(0xA24B_AED4_963E_E407),
            );
            let mut conn = Conn::open(&addr).await?;
            let mut lat = Vec::new();
            if !think.is_zero() && !burst {
                // Spread the runs' first steps over one pause.
                tokio::time::sleep(think.mul_f64(i as f64 / c as f64)).await;
            }
            'outer: loop {
                let id = conn.start().await?;
                started.fetch_add(1, Ordering::Relaxed);
                let path = format!("/agent/run/{id}/step");
                for _ in 0..per_run {
                    if left
                        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                        .is_err()
                    {
                        break 'outer;
                    }
                    let t = Instant::now();
                    let (status, _) = conn.post(&path, &body).await?;
                    anyhow::ensure!(status == 200, "step answered {status}");
                    lat.push(t.elapsed());
                    if !think.is_zero() {
                        let pause = if burst {
                            think
                        } else {
                            think.mul_f64(0.75 + 0.5 * rng.unit())
                        };
                        tokio::time::sleep(pause).await;
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
    let cpu = cpu_time(server.pid).saturating_sub(cpu0);
    all.sort();
    let mode = match (l.think.is_zero(), l.burst) {
        (true, _) => "closed",
        (false, false) => "paced",
        (false, true) => "burst",
    };
    println!(
        "{mode:>6} | {:>5} runs | {:>5} steps | p50 {:>7.3} ms | p99 {:>7.3} ms | max {:>7.1} ms | {:>6.0} steps/s | {} CPU {:>4.0} µs/req",
        l.c,
        all.len(),
        pct(&all, 0.50),
        pct(&all, 0.99),
        pct(&all, 1.0),
        all.len() as f64 / wall.as_secs_f64(),
        if server.child.is_some() { "server" } else { "process" },
        cpu.as_secs_f64() * 1e6 / (all.len() + started.load(Ordering::Relaxed)).max(1) as f64,
    );
    Ok(())
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let server = spawn_server(a.in_process, a.server_exe.as_deref())?;
    // The load generator: one thread.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let body = Arc::new(serde_json::to_vec(&json!({"snapshot": sentience_agent::sample::login_page_snapshot(), "lastActionResult": {"success": true, "message": "ok"}}))?);
        println!(
            "agent server overhead per /step (built-in scorer, SQLite on disk, loopback HTTP, {} KB snapshot); server: {}",
            body.len() / 1024,
            if a.in_process { "in this process (shares it with the load generator)".to_string() } else { format!("child process {} at {}", server.pid, server.addr) }
        );
        let lvl = |c: usize, think: Duration, requests: usize| Level {
            c,
            think,
            burst: a.burst,
            requests,
            steps_per_run: a.steps_per_run,
        };
        // Warm-up: connections, SQLite pages, allocator.
        level(&server, body.clone(), lvl(8, Duration::ZERO, 400)).await?;
        // Memory per idle run, measured before the load levels grow the heap:
        // RSS growth while creating runs that each hold a snapshot and a step.
        let before = rss_kb(server.pid);
        let mut conn = Conn::open(&server.addr).await?;
        for _ in 0..a.idle_runs {
            let id = conn.start().await?;
            let (status, _) = conn.post(&format!("/agent/run/{id}/step"), &body).await?;
            anyhow::ensure!(status == 200, "step answered {status}");
        }
        drop(conn);
        let after = rss_kb(server.pid);
        let file = |n: &str| std::fs::metadata(server.db_dir.join(n)).map(|m| m.len()).unwrap_or(0);
        // Warm-up runs (8 workers × 400 / 10 steps) plus the idle runs.
        let runs = a.idle_runs + 8 + 400 / a.steps_per_run.max(1);
        println!(
            "memory: {:.2} KB RSS growth per idle run ({} runs, server RSS {} -> {} KB; recently used runs are cached in memory); database file {:.1} KB per run (+ {:.1} MB WAL)",
            after.saturating_sub(before) as f64 / a.idle_runs.max(1) as f64,
            a.idle_runs,
            before,
            after,
            file("runs.sqlite3") as f64 / 1024.0 / runs.max(1) as f64,
            file("runs.sqlite3-wal") as f64 / 1024.0 / 1024.0,
        );
        println!(
            "closed = each run steps again as soon as answered (saturation); paced = {} ms (±25 %) between a run's steps{}",
            a.think_ms,
            if a.burst { ", all runs in step (bursts)" } else { ", runs spread out" }
        );
        if a.modes != "paced" {
            for &c in &a.concurrency {
                level(&server, body.clone(), lvl(c.max(1), Duration::ZERO, a.requests)).await?;
            }
        }
        if a.modes != "closed" {
            for &c in &a.concurrency {
                // Paced levels are bounded to `--paced-steps` per run, so they end quickly.
                let requests = a.requests.min(c.max(1) * a.paced_steps);
                level(&server, body.clone(), lvl(c.max(1), Duration::from_millis(a.think_ms), requests)).await?;
            }
        }
        anyhow::Ok(())
    })?;
    drop(server);
    Ok(())
}
