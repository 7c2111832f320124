//! `sentience bench-server`: the agent server's own overhead per /step with
//! the built-in scorer (no LLM), at several numbers of concurrent runs, over
//! real HTTP on loopback, for each store (docs/benchmarks.md "Agent server"):
//!
//! - `sqlite`: one `sentience serve` with its SQLite file on disk;
//! - `postgres`: one server on PostgreSQL (`--database URL`);
//! - `postgres-proxy`: the same behind the bench's round-robin proxy (the
//!   like-for-like baseline of the next);
//! - `replicas`: `--replicas` servers on one PostgreSQL behind that proxy,
//!   each request to the next replica.
//!
//! Servers are child processes (`<this exe> serve --port 0 …`), so they have
//! their own runtimes and the figures are theirs; the load generator
//! (`bench_load.rs`) is one thread in this process. Each PostgreSQL store
//! gets a schema of its own, dropped at the end.
//!
//! Levels per store: closed (each run steps again as soon as answered:
//! saturation, latency = runs / throughput by Little's law) and paced (each
//! run pauses `--think-ms` ±25 % between steps, as an agent does while the
//! browser acts; runs spread over one pause, or in step with `--burst`),
//! then a paced level with a live stream per run, measuring how long an
//! event takes from its commit to a client connected to the server (with
//! replicas: to another replica than the one that committed it, mostly).
//! Prints p50 / p99 latency, throughput, the servers' (and PostgreSQL's)
//! CPU per request, memory per idle run, and a summary table.

use crate::bench_load::{level, pct, Conn, Level, Measured};
use crate::bench_procs::{
    cpu_of, postgres_processes, rss_kb, run_queue_wait, stat, threads_cpu, Readers,
};
use anyhow::{bail, Context};
use sentience_agent::ScorerPolicy;
use sentience_server::{AppState, ServerConfig, Store};
use serde_json::json;
use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Concurrent runs to measure at.
    #[arg(long, value_delimiter = ',', default_value = "1,50,500")]
    concurrency: Vec<usize>,
    /// /step requests per closed-loop level.
    #[arg(long, default_value_t = 3000)]
    requests: usize,
    /// Steps per run before a worker starts a fresh run.
    #[arg(long, default_value_t = 10)]
    steps_per_run: usize,
    /// Idle runs created to measure memory per run (single servers).
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
    /// Paced and stream levels: steps per run (a level lasts about this
    /// many pauses).
    #[arg(long, default_value_t = 20)]
    paced_steps: usize,
    /// Only closed-loop levels, or only paced levels.
    #[arg(long, value_parser = ["closed", "paced", "both"], default_value = "both")]
    modes: String,
    /// Paced runs with a live stream each (the delivery-latency level); 0: none.
    #[arg(long, default_value_t = 500)]
    stream_runs: usize,
    /// Stores to measure, in order: sqlite, postgres, postgres-proxy,
    /// replicas. Default: sqlite, and with --database the three others.
    #[arg(long, value_delimiter = ',')]
    stores: Vec<String>,
    /// PostgreSQL for the postgres stores (a schema is created and dropped).
    #[arg(long, env = "BENCH_DATABASE_URL", hide_env_values = true)]
    database: Option<String>,
    /// PostgreSQL's `synchronous_commit` for the servers' sessions (default:
    /// the database's own setting, `on` unless configured otherwise).
    #[arg(long, value_parser = ["on", "off", "local", "remote_write"])]
    synchronous_commit: Option<String>,
    /// How the bench's proxy picks a replica: `round-robin` (each request
    /// to the next, no stickiness: the case replicas must handle) or
    /// `run-hash` (every request of a run to one replica, as a balancer
    /// hashing the run id from the path would).
    #[arg(long, value_parser = ["round-robin", "run-hash"], default_value = "round-robin")]
    balance: String,
    /// Servers behind the proxy in the `replicas` store.
    #[arg(long, default_value_t = 3)]
    replicas: usize,
    /// Serve with the run cache off (every request reads its run from the
    /// database), to compare with the cache's version check.
    #[arg(long)]
    no_run_cache: bool,
    /// Serve from inside this process (SQLite only; server and load
    /// generator share one process) instead of a child `sentience serve`.
    #[arg(long, conflicts_with = "server_exe")]
    in_process: bool,
    /// Executable to run as `<exe> serve …` (default: this one), e.g. an
    /// older build, to compare servers under the same load generator.
    #[arg(long)]
    server_exe: Option<std::path::PathBuf>,
}

/// The processes serving one store, and where the load goes.
struct Target {
    /// Where requests go (a server, or the proxy).
    addr: String,
    /// Where streams connect (the servers themselves).
    servers: Vec<String>,
    pids: Vec<u32>,
    children: Vec<Child>,
    /// The SQLite store's directory.
    db_dir: Option<std::path::PathBuf>,
    /// PostgreSQL: (admin URL, schema) to drop, and its server process (if
    /// on this machine: its children are the backends and writers).
    schema: Option<(String, String)>,
    postmaster: Option<u32>,
    /// The round-robin proxy, when requests go through one.
    proxy: Option<crate::bench_proxy::Proxy>,
    /// The load generator's stream readers.
    readers: Readers,
    /// Keeps the in-process server's runtime alive.
    _rt: Option<tokio::runtime::Runtime>,
}

impl Drop for Target {
    fn drop(&mut self) {
        for c in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
        if let Some(rt) = self._rt.take() {
            // Dropped inside the load generator's runtime: no blocking wait.
            rt.shutdown_background();
        }
        if let Some(d) = &self.db_dir {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

/// CPU spent during a level, by whom.
#[derive(Default, Clone, Copy)]
struct Cpu {
    servers: Duration,
    postgres: Duration,
    /// The load generator's thread (its HTTP clients and stream readers).
    generator: Duration,
    proxy: Duration,
    /// Time the servers' threads, and PostgreSQL's processes, were
    /// runnable but waiting for a core.
    servers_queued: Duration,
    postgres_queued: Duration,
}

impl Cpu {
    fn now(t: &Target, pg: &[u32]) -> Cpu {
        Cpu {
            servers: cpu_of(&t.pids),
            postgres: cpu_of(pg),
            servers_queued: run_queue_wait(&t.pids),
            postgres_queued: run_queue_wait(pg),
            // The generator is this process's main thread (TID = PID) and
            // its stream readers' thread.
            generator: threads_cpu(&[std::process::id()]) + threads_cpu(&t.readers.tids()),
            proxy: t
                .proxy
                .as_ref()
                .map_or(Duration::ZERO, |p| threads_cpu(&p.threads())),
        }
    }

    fn since(self, before: Cpu) -> Cpu {
        Cpu {
            servers: self.servers.saturating_sub(before.servers),
            postgres: self.postgres.saturating_sub(before.postgres),
            generator: self.generator.saturating_sub(before.generator),
            proxy: self.proxy.saturating_sub(before.proxy),
            servers_queued: self.servers_queued.saturating_sub(before.servers_queued),
            postgres_queued: self.postgres_queued.saturating_sub(before.postgres_queued),
        }
    }
}

fn spawn_serve(
    exe: &std::path::Path,
    args: &[String],
    env: &[(&str, &str)],
) -> anyhow::Result<(Child, String)> {
    let mut cmd = Command::new(exe);
    cmd.arg("serve")
        .args(["--port", "0", "--host", "127.0.0.1"])
        .args(args)
        .env(
            "RUST_LOG",
            std::env::var("RUST_LOG").unwrap_or_else(|_| "warn".into()),
        )
        .env_remove("LLM_API_KEY")
        .env_remove("SENTIENCE_API_KEY")
        .env_remove("DATABASE_URL")
        .env_remove("S2_PORT")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().context("starting `sentience serve`")?;
    let out = child.stdout.take().context("no stdout")?;
    let mut line = String::new();
    std::io::BufReader::new(out).read_line(&mut line)?;
    let Some(addr) = line.trim().strip_prefix("listening on http://") else {
        let _ = child.kill();
        bail!("unexpected first line from `sentience serve`: {line:?}");
    };
    Ok((child, addr.to_string()))
}

/// A fresh schema in `url`'s database: (URL using it, schema, the PostgreSQL
/// server's process if it runs on this machine). `settings`: more `-c`
/// options for the servers' sessions.
async fn fresh_schema(
    url: &str,
    n: usize,
    settings: &str,
) -> anyhow::Result<(String, String, Option<u32>)> {
    let schema = format!("bench_{}_{n}", std::process::id());
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .context("connecting to the benchmark's PostgreSQL")?;
    tokio::spawn(conn);
    client
        .batch_execute(&format!(
            "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"
        ))
        .await?;
    let backend: i32 = client
        .query_one("SELECT pg_backend_pid()", &[])
        .await?
        .get(0);
    let sep = if url.contains('?') { '&' } else { '?' };
    Ok((
        format!("{url}{sep}options=-csearch_path%3D{schema}{settings}"),
        schema,
        stat(backend as u32).map(|(_, ppid)| ppid),
    ))
}

async fn drop_schema(url: &str, schema: &str) {
    if let Ok((client, conn)) = tokio_postgres::connect(url, tokio_postgres::NoTls).await {
        tokio::spawn(conn);
        let _ = client
            .batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
            .await;
    }
}

async fn start_target(a: &Args, store: &str, n: usize) -> anyhow::Result<Target> {
    let exe = match &a.server_exe {
        Some(e) => e.clone(),
        None => std::env::current_exe().context("locating the sentience executable")?,
    };
    let mut common: Vec<String> = Vec::new();
    if a.no_run_cache {
        common.push("--no-run-cache".into());
    }
    let mut t = Target {
        addr: String::new(),
        servers: Vec::new(),
        pids: Vec::new(),
        children: Vec::new(),
        db_dir: None,
        schema: None,
        postmaster: None,
        proxy: None,
        readers: Readers::start()?,
        _rt: None,
    };
    if store == "sqlite" {
        let dir = std::env::temp_dir().join(format!("sentience-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let db = dir.join("runs.sqlite3");
        t.db_dir = Some(dir);
        if a.in_process {
            let rt = tokio::runtime::Runtime::new()?;
            let config = ServerConfig {
                cache_runs: !a.no_run_cache,
                ..ServerConfig::default()
            };
            // Its own runtime, as a server process would have; this one is
            // the load generator's.
            let store = Store::open(&db)?;
            let (tx, rx) = tokio::sync::oneshot::channel();
            rt.spawn(async move {
                let state = AppState::new(config, store, Arc::new(ScorerPolicy));
                match sentience_server::bind::bind("127.0.0.1:0").await {
                    Ok(listener) => {
                        let _ = tx.send(listener.local_addr().map(|a| a.to_string()));
                        let _ = sentience_server::serve(listener, state).await;
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e));
                    }
                }
            });
            let addr = rx.await.context("in-process server did not start")??;
            t._rt = Some(rt);
            t.pids.push(std::process::id());
            t.addr = addr.clone();
            t.servers.push(addr);
            return Ok(t);
        }
        let mut args = common.clone();
        args.extend(["--db".to_string(), db.display().to_string()]);
        let (child, addr) = spawn_serve(&exe, &args, &[])?;
        t.pids.push(child.id());
        t.children.push(child);
        t.addr = addr.clone();
        t.servers.push(addr);
        return Ok(t);
    }
    let url = a
        .database
        .as_deref()
        .context("the postgres stores need --database postgres://… (bash pkg-scripts/bench.sh server starts one)")?;
    let settings = match a.synchronous_commit.as_deref() {
        Some(v) => format!("%20-csynchronous_commit%3D{v}"),
        None => String::new(),
    };
    let (db, schema, postmaster) = fresh_schema(url, n, &settings).await?;
    t.schema = Some((url.to_string(), schema));
    t.postmaster = postmaster;
    let count = if store == "replicas" {
        a.replicas.max(1)
    } else {
        1
    };
    let mut args = common;
    args.extend(["--database".to_string(), db]);
    for _ in 0..count {
        let (child, addr) = spawn_serve(&exe, &args, &[])?;
        t.pids.push(child.id());
        t.children.push(child);
        t.servers.push(addr);
    }
    t.addr = match store {
        "postgres" => t.servers[0].clone(),
        "postgres-proxy" | "replicas" => {
            let p = crate::bench_proxy::start(t.servers.clone(), a.balance == "run-hash")?;
            let addr = p.addr.clone();
            t.proxy = Some(p);
            addr
        }
        other => bail!("unknown store {other:?}: sqlite, postgres, postgres-proxy or replicas"),
    };
    Ok(t)
}

/// One row of the summary.
struct Summary {
    store: String,
    paced: Option<(f64, f64, f64)>,
    stream: Option<(f64, f64, f64, usize)>,
}

fn mode(think: Duration, burst: bool, streams: bool) -> &'static str {
    match (think.is_zero(), burst, streams) {
        (true, ..) => "closed",
        (false, _, true) => "stream",
        (false, false, false) => "paced",
        (false, true, false) => "burst",
    }
}

fn report(t: &Target, l: &Level, m: &Measured, cpu: Cpu) {
    let requests = (m.steps.len() + m.runs_started).max(1) as f64;
    let mut line = format!(
        "{:>6} | {:>5} runs | {:>5} steps | p50 {:>7.3} ms | p99 {:>7.3} ms | max {:>7.1} ms | {:>6.0} steps/s | server CPU {:>4.0} µs/req",
        mode(l.think, l.burst, !l.streams.is_empty()),
        l.runs,
        m.steps.len(),
        pct(&m.steps, 0.50),
        pct(&m.steps, 0.99),
        pct(&m.steps, 1.0),
        m.steps.len() as f64 / m.wall.as_secs_f64(),
        cpu.servers.as_secs_f64() * 1e6 / requests,
    );
    let per = |d: Duration| d.as_secs_f64() * 1e6 / requests;
    if t.postmaster.is_some() {
        line.push_str(&format!(" + PostgreSQL {:>4.0} µs/req", per(cpu.postgres)));
    }
    if t.proxy.is_some() {
        line.push_str(&format!(" + proxy {:>4.0} µs/req", per(cpu.proxy)));
    }
    line.push_str(&format!(
        " (load generator {:.0} µs/req; all {:.0} µs/req)",
        per(cpu.generator),
        per(cpu.servers + cpu.postgres + cpu.proxy + cpu.generator)
    ));
    line.push_str(&format!(
        " | waiting for a core: server {:.0} µs/req",
        per(cpu.servers_queued)
    ));
    if t.postmaster.is_some() {
        line.push_str(&format!(
            ", PostgreSQL {:.0} µs/req",
            per(cpu.postgres_queued)
        ));
    }
    if !l.think.is_zero() {
        // The paced level's rate between ramp-up and ramp-down (the whole
        // level's rate above also counts the runs' staggered start and the
        // pause after each run's last step), the generator's own lag, and
        // the runs' first steps apart from the others.
        let mut sent: Vec<f64> = m.samples.iter().map(|s| s.sent).collect();
        sent.sort_by(f64::total_cmp);
        let (a, b) = (pct(&sent, 0.25), pct(&sent, 0.75));
        let steady = if b > a {
            (sent.len() / 2) as f64 / ((b - a) / 1e3)
        } else {
            0.0
        };
        let split = |first: bool| {
            let mut v: Vec<f64> = m
                .samples
                .iter()
                .filter(|s| (s.nth == 0) == first)
                .map(|s| s.latency)
                .collect();
            v.sort_by(f64::total_cmp);
            pct(&v, 0.99)
        };
        line.push_str(&format!(
            " | steady {steady:.0} steps/s | p99 first steps {:.1} ms, others {:.1} ms | generator lag p50 {:.2} ms p99 {:.2} ms",
            split(true),
            split(false),
            pct(&m.lag, 0.5),
            pct(&m.lag, 0.99),
        ));
    }
    if !l.streams.is_empty() {
        line.push_str(&format!(
            " | stream: {} events ({} replayed on connect, not counted), delivery p50 {:.1} ms p99 {:.1} ms max {:.1} ms",
            m.delivery.len(),
            m.arrivals.len() - m.delivery.len(),
            pct(&m.delivery, 0.5),
            pct(&m.delivery, 0.99),
            pct(&m.delivery, 1.0)
        ));
    }
    println!("{line}");
    if let Some(path) = std::env::var_os("SENTIENCE_BENCH_TRACE") {
        // Every step of the level (appended, one level after another):
        // level, ms after the level started, latency ms, step of its run
        // (stream events: arrival, delivery ms, "event", or "replay" when
        // committed before the stream was open).
        let name = format!(
            "{}-{}",
            mode(l.think, l.burst, !l.streams.is_empty()),
            l.runs
        );
        let mut out = String::new();
        for s in &m.samples {
            out.push_str(&format!(
                "{name},{:.3},{:.3},{}\n",
                s.sent, s.latency, s.nth
            ));
        }
        for a in &m.arrivals {
            let kind = if a.replay { "replay" } else { "event" };
            out.push_str(&format!("{name},{:.3},{:.3},{kind}\n", a.at, a.delivery));
        }
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| std::io::Write::write_all(&mut f, out.as_bytes()));
        if let Err(e) = written {
            eprintln!("SENTIENCE_BENCH_TRACE: {e}");
        }
    }
}

/// PostgreSQL servers' turns so far, summed over the servers (`/health`'s
/// `store.turns`): [optimistic, locked, compare-and-set lost].
async fn turns(t: &Target) -> Option<[u64; 3]> {
    t.postmaster?;
    let mut sum = [0; 3];
    for s in &t.servers {
        let v: serde_json::Value = reqwest::get(format!("http://{s}/health"))
            .await
            .ok()?
            .json()
            .await
            .ok()?;
        let turns = &v["store"]["turns"];
        for (n, k) in sum.iter_mut().zip(["optimistic", "locked", "conflicts"]) {
            *n += turns[k].as_u64()?;
        }
    }
    Some(sum)
}

async fn measure(t: &Target, body: Arc<Vec<u8>>, l: Level) -> anyhow::Result<Measured> {
    // The pools' connections are open by now (warm-up).
    let pg = postgres_processes(t.postmaster);
    let before = Cpu::now(t, &pg);
    let turns0 = turns(t).await;
    let m = level(&t.addr, body, l.clone()).await?;
    let cpu = Cpu::now(t, &pg).since(before);
    report(t, &l, &m, cpu);
    if let (Some(a), Some(b)) = (turns0, turns(t).await) {
        // An older server (`--server-exe`) does not count them.
        println!(
            "        turns: {} without a lock (this replica wrote the run last), {} under the row lock, {} compare-and-set lost (redone under the lock)",
            b[0].saturating_sub(a[0]),
            b[1].saturating_sub(a[1]),
            b[2].saturating_sub(a[2])
        );
    }
    Ok(m)
}

/// RSS growth per idle run on a single server (runs each holding a
/// snapshot and a step), measured before the load levels grow the heap.
async fn memory(t: &Target, body: &[u8], idle_runs: usize, warm_runs: usize) -> anyhow::Result<()> {
    let pid = t.pids[0];
    let before = rss_kb(pid);
    let mut conn = Conn::open(&t.addr).await?;
    for _ in 0..idle_runs {
        let id = conn.start().await?;
        let (status, _) = conn.post(&format!("/agent/run/{id}/step"), body).await?;
        anyhow::ensure!(status == 200, "step answered {status}");
    }
    let after = rss_kb(pid);
    let mut line = format!(
        "memory: {:.2} KB RSS growth per idle run ({idle_runs} runs, server RSS {before} -> {after} KB; recently used runs are cached in memory)",
        after.saturating_sub(before) as f64 / idle_runs.max(1) as f64,
    );
    if let Some(dir) = &t.db_dir {
        let file = |n: &str| std::fs::metadata(dir.join(n)).map(|m| m.len()).unwrap_or(0);
        line.push_str(&format!(
            "; database file {:.1} KB per run (+ {:.1} MB WAL)",
            file("runs.sqlite3") as f64 / 1024.0 / (idle_runs + warm_runs).max(1) as f64,
            file("runs.sqlite3-wal") as f64 / 1024.0 / 1024.0,
        ));
    }
    println!("{line}");
    Ok(())
}

async fn bench_store(
    a: &Args,
    store: &str,
    n: usize,
    body: Arc<Vec<u8>>,
) -> anyhow::Result<Summary> {
    let t = start_target(a, store, n).await?;
    println!(
        "\n== {store}: {} server process{} ({}){}",
        t.servers.len(),
        if t.servers.len() == 1 { "" } else { "es" },
        t.servers.join(", "),
        if t.addr != t.servers[0] {
            format!(
                ", requests {} through the proxy at {}",
                if a.balance == "run-hash" {
                    "by a hash of their run"
                } else {
                    "round robin"
                },
                t.addr
            )
        } else {
            String::new()
        }
    );
    let lvl = |runs: usize, think: Duration, requests: usize, streams: Vec<String>| Level {
        runs,
        think,
        burst: a.burst,
        requests,
        steps_per_run: a.steps_per_run,
        readers: (!streams.is_empty()).then(|| t.readers.handle()),
        streams,
    };
    // Warm-up: connections, pages, allocator, statement caches.
    level(
        &t.addr,
        body.clone(),
        lvl(8, Duration::ZERO, 400, Vec::new()),
    )
    .await?;
    if t.servers.len() == 1 && a.idle_runs > 0 {
        memory(&t, &body, a.idle_runs, 8 + 400 / a.steps_per_run.max(1)).await?;
    }
    let think = Duration::from_millis(a.think_ms);
    let mut summary = Summary {
        store: store.to_string(),
        paced: None,
        stream: None,
    };
    if a.modes != "paced" {
        for &c in &a.concurrency {
            measure(
                &t,
                body.clone(),
                lvl(c.max(1), Duration::ZERO, a.requests, Vec::new()),
            )
            .await?;
        }
    }
    if a.modes != "closed" {
        for &c in &a.concurrency {
            // `--paced-steps` per run (not capped by `--requests`: at 500
            // runs that left 6 steps a run, a level of 1 s, a sixth of it
            // the runs' first steps and most of it ramp-up and ramp-down).
            let requests = c.max(1) * a.paced_steps;
            let m = measure(&t, body.clone(), lvl(c.max(1), think, requests, Vec::new())).await?;
            summary.paced = Some((
                pct(&m.steps, 0.5),
                pct(&m.steps, 0.99),
                m.steps.len() as f64 / m.wall.as_secs_f64(),
            ));
        }
    }
    if a.stream_runs > 0 && !think.is_zero() {
        let c = a.stream_runs;
        let requests = c * a.paced_steps;
        let m = measure(&t, body.clone(), lvl(c, think, requests, t.servers.clone())).await?;
        summary.stream = Some((
            pct(&m.steps, 0.99),
            pct(&m.delivery, 0.5),
            pct(&m.delivery, 0.99),
            m.delivery.len(),
        ));
    }
    if let Some((url, schema)) = &t.schema {
        drop_schema(url, schema).await;
    }
    Ok(summary)
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let stores = if a.stores.is_empty() {
        let mut s = vec!["sqlite".to_string()];
        if a.database.is_some() {
            s.extend(["postgres", "postgres-proxy", "replicas"].map(String::from));
        }
        s
    } else {
        a.stores.clone()
    };
    if a.in_process && stores.iter().any(|s| s != "sqlite") {
        bail!("--in-process serves SQLite only");
    }
    // The load generator: one thread.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let body = Arc::new(serde_json::to_vec(&json!({"snapshot": sentience_agent::sample::login_page_snapshot(), "lastActionResult": {"success": true, "message": "ok"}}))?);
        println!(
            "agent server overhead per /step (built-in scorer, loopback HTTP, {} KB snapshot{}); closed = each run steps again as soon as answered (saturation); paced = {} ms (±25 %) between a run's steps{}; stream = paced, with a live stream per run (delivery: event's commit → client)",
            body.len() / 1024,
            if a.no_run_cache { ", run cache off" } else { "" },
            a.think_ms,
            if a.burst { ", all runs in step (bursts)" } else { ", runs spread out" }
        );
        let mut summary = Vec::new();
        for (n, store) in stores.iter().enumerate() {
            summary.push(bench_store(&a, store, n, body.clone()).await?);
        }
        let top = a.concurrency.iter().copied().max().unwrap_or(0);
        println!("\nsummary ({top} paced runs; stream level: {} runs):", a.stream_runs);
        println!("| store | p50 | p99 | steps/s | stream level p99 | delivery p50 | delivery p99 | events |");
        println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
        for s in summary {
            let (p50, p99, rate) = s.paced.unwrap_or_default();
            let (sp99, d50, d99, events) = s.stream.unwrap_or_default();
            println!(
                "| {} | {p50:.2} ms | {p99:.2} ms | {rate:.0} | {sp99:.2} ms | {d50:.1} ms | {d99:.1} ms | {events} |",
                s.store
            );
        }
        anyhow::Ok(())
    })
}
