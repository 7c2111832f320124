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
//! (`bench_load.rs`) is one thread in this process; `bench_target.rs` starts
//! the servers, `bench_report.rs` prints what a level measured. Each PostgreSQL store
//! gets a schema of its own, dropped at the end.
//!
//! Levels per store: closed (each run steps again as soon as answered:
//! saturation, latency = runs / throughput by Little's law) and paced (each
//! run pauses `--think-ms` ±25 % between steps, as an agent does while the
//! browser acts; runs spread over one pause, or in step with `--burst`),
//! then a paced level with a live stream per run, measuring how long an
//! event takes from its `at` (stamped before its commit; with
//! `--commit-trace` also from the commit itself: bench_commits.rs) to a
//! client connected to the server (with replicas: to another replica than
//! the one that committed it, mostly).
//! Prints p50 / p99 latency, throughput, the servers' (and PostgreSQL's)
//! CPU per request, memory per idle run, and a summary table.

use crate::bench_commits::{join, Joined, Received};
use crate::bench_load::{level, pct, Conn, Level, Measured};
use crate::bench_procs::{postgres_processes, rss_kb};
use crate::bench_report::{report, turns, Cpu};
use crate::bench_target::{drop_schema, start_target, Target};
use anyhow::bail;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Concurrent runs to measure at.
    #[arg(long, value_delimiter = ',', default_value = "1,50,500")]
    pub(crate) concurrency: Vec<usize>,
    /// /step requests per closed-loop level.
    #[arg(long, default_value_t = 3000)]
    pub(crate) requests: usize,
    /// Steps per run before a worker starts a fresh run.
    #[arg(long, default_value_t = 10)]
    pub(crate) steps_per_run: usize,
    /// Idle runs created to measure memory per run (single servers).
    #[arg(long, default_value_t = 2000)]
    pub(crate) idle_runs: usize,
    /// Paced mode: pause between a run's steps, as the extension does while
    /// it executes the tool and takes the next snapshot.
    #[arg(long, default_value_t = 100)]
    pub(crate) think_ms: u64,
    /// Paced mode: start every run at once and keep them in step (bursts of
    /// N simultaneous steps every pause) instead of spreading them out.
    #[arg(long)]
    pub(crate) burst: bool,
    /// Paced and stream levels: steps per run (a level lasts about this
    /// many pauses).
    #[arg(long, default_value_t = 20)]
    pub(crate) paced_steps: usize,
    /// Only closed-loop levels, or only paced levels.
    #[arg(long, value_parser = ["closed", "paced", "both"], default_value = "both")]
    pub(crate) modes: String,
    /// Paced runs with a live stream each (the delivery-latency level); 0: none.
    #[arg(long, default_value_t = 500)]
    pub(crate) stream_runs: usize,
    /// Stores to measure, in order: sqlite, postgres, postgres-proxy,
    /// replicas. Default: sqlite, and with --database the three others.
    #[arg(long, value_delimiter = ',')]
    pub(crate) stores: Vec<String>,
    /// PostgreSQL for the postgres stores (a schema is created and dropped).
    #[arg(long, env = "BENCH_DATABASE_URL", hide_env_values = true)]
    pub(crate) database: Option<String>,
    /// PostgreSQL's `synchronous_commit` for the servers' sessions (default:
    /// the database's own setting, `on` unless configured otherwise).
    #[arg(long, value_parser = ["on", "off", "local", "remote_write"])]
    pub(crate) synchronous_commit: Option<String>,
    /// How the bench's proxy picks a replica: `round-robin` (each request
    /// to the next, no stickiness: the case replicas must handle) or
    /// `run-hash` (every request of a run to one replica, as a balancer
    /// hashing the run id from the path would).
    #[arg(long, value_parser = ["round-robin", "run-hash"], default_value = "round-robin")]
    pub(crate) balance: String,
    /// Servers behind the proxy in the `replicas` store.
    #[arg(long, default_value_t = 3)]
    pub(crate) replicas: usize,
    /// Serve with the run cache off (every request reads its run from the
    /// database), to compare with the cache's version check.
    #[arg(long)]
    pub(crate) no_run_cache: bool,
    /// Serve from inside this process (SQLite only; server and load
    /// generator share one process) instead of a child `sentience serve`.
    #[arg(long, conflicts_with = "server_exe")]
    pub(crate) in_process: bool,
    /// Executable to run as `<exe> serve …` (default: this one), e.g. an
    /// older build, to compare servers under the same load generator.
    #[arg(long)]
    pub(crate) server_exe: Option<std::path::PathBuf>,
    /// The servers trace each turn's commit instant (run, sequence range,
    /// wall clock), and the stream level also reports delivery from the
    /// commit (the definition) beside delivery from the event's
    /// `at`, which is stamped before the commit (bench_commits.rs).
    #[arg(long, conflicts_with = "in_process")]
    pub(crate) commit_trace: bool,
}

/// One row of the summary.
struct Summary {
    store: String,
    paced: Option<(f64, f64, f64)>,
    stream: Option<(f64, f64, f64, usize)>,
    /// Delivery from the commit, p50 / p99 (`--commit-trace`).
    from_commit: Option<(f64, f64)>,
}

/// The stream level's events joined with the servers' traced commits
/// (`--commit-trace`), printed; `None` without the trace.
async fn from_commit(t: &Target, m: &Measured) -> Option<Joined> {
    let commits = t.commits.as_ref()?;
    // The servers' stderr is read on threads of their own: let them catch
    // up with the level's last commits.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let commits = std::mem::take(&mut *commits.lock().unwrap_or_else(|e| e.into_inner()));
    let received: Vec<Received> = m
        .arrivals
        .iter()
        .filter(|a| !a.replay)
        .map(|a| Received {
            run: a.run.clone(),
            seq: a.seq,
            at_ms: a.received_ms,
        })
        .collect();
    let j = join(&commits, &received);
    let below0 = j.delivery.iter().filter(|d| **d < 0.0).count();
    println!(
        "        stream from the commit (servers' commit trace joined by run and sequence): {} of {} live events, delivery p50 {:.2} ms p90 {:.2} ms p99 {:.2} ms max {:.1} ms; {} received before the server read its clock after the commit; {} turns with events traced",
        j.delivery.len(),
        received.len(),
        pct(&j.delivery, 0.5),
        pct(&j.delivery, 0.9),
        pct(&j.delivery, 0.99),
        pct(&j.delivery, 1.0),
        below0,
        commits.len(),
    );
    if j.unmatched > 0 {
        // E.g. a run's creation event counted live (numbered in the ms its
        // stream opened): the run's insert is not a turn.
        println!("        ({} live events had no traced commit)", j.unmatched);
    }
    Some(j)
}

async fn measure(t: &Target, body: Arc<Vec<u8>>, l: Level) -> anyhow::Result<Measured> {
    if let Some(c) = &t.commits {
        // Only this level's commits are joined with its events.
        c.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
    // PostgreSQL's processes now, for their wait for a core (their CPU is
    // counted from the postmaster down, backends forked or closed during
    // the level included: bench_procs::family_cpu).
    let pg = postgres_processes(t.postmaster);
    let counters0 = pg_counters(t).await;
    let before = Cpu::now(t, &pg);
    let turns0 = turns(t).await;
    let m = level(&t.addr, body, l.clone()).await?;
    let cpu = Cpu::now(t, &pg).since(before);
    report(t, &l, &m, cpu);
    if let Some(a) = counters0 {
        // A backend sends its statistics at most once a second; one that
        // went idle within that second sends them 10 s later
        // (PGSTAT_IDLE_INTERVAL): read until every step's update is counted
        // (each step updates its run once) or 12 s have passed.
        let mut last = None;
        for _ in 0..12 {
            tokio::time::sleep(Duration::from_millis(1000)).await;
            last = pg_counters(t).await;
            if last
                .as_ref()
                .is_some_and(|b| b.updates - a.updates >= m.steps.len() as i64)
            {
                break;
            }
        }
        if let Some(b) = last {
            let steps = m.steps.len().max(1) as f64;
            let upd = b.updates - a.updates;
            let hot = b.hot_updates - a.hot_updates;
            println!(
                "        PostgreSQL counters: runs updated {upd}, HOT {hot} ({:.1} % not HOT); WAL per step {:.0} records, {:.0} bytes ({:.1} full-page images); cluster-wide WAL over the level {:.1} MB",
                if upd > 0 { 100.0 * (upd - hot) as f64 / upd as f64 } else { 0.0 },
                (b.wal_records - a.wal_records) as f64 / steps,
                (b.wal_bytes - a.wal_bytes) as f64 / steps,
                (b.wal_fpi - a.wal_fpi) as f64 / steps,
                (b.wal_bytes - a.wal_bytes) as f64 / 1e6,
            );
        }
    }
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

/// Load-independent counters of the PostgreSQL stores, read before and
/// after a level: the runs table's updates and how many were HOT (the new
/// version on the same page, no index entries), and the cluster's WAL
/// (`pg_stat_wal`: the whole cluster, so use a cluster of the bench's own).
struct PgCounters {
    updates: i64,
    hot_updates: i64,
    wal_records: i64,
    wal_fpi: i64,
    wal_bytes: i64,
}

async fn pg_counters(t: &Target) -> Option<PgCounters> {
    let (url, schema) = t.schema.as_ref()?;
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .ok()?;
    tokio::spawn(conn);
    let tables = client
        .query_one(
            "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'runs'",
            &[schema],
        )
        .await
        .ok()?;
    let wal = client
        .query_one(
            "SELECT wal_records, wal_fpi, wal_bytes::bigint FROM pg_stat_wal",
            &[],
        )
        .await
        .ok()?;
    Some(PgCounters {
        updates: tables.get(0),
        hot_updates: tables.get(1),
        wal_records: wal.get(0),
        wal_fpi: wal.get(1),
        wal_bytes: wal.get(2),
    })
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
        from_commit: None,
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
        if let Some(j) = from_commit(&t, &m).await {
            summary.from_commit = Some((pct(&j.delivery, 0.5), pct(&j.delivery, 0.99)));
        }
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
            "agent server overhead per /step (built-in scorer, loopback HTTP, {} KB snapshot{}); closed = each run steps again as soon as answered (saturation); paced = {} ms (±25 %) between a run's steps{}; stream = paced, with a live stream per run (delivery: the event's `at`, stamped before its commit → client; with --commit-trace also from the commit)",
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
        let trace = a.commit_trace;
        if trace {
            println!("| store | p50 | p99 | steps/s | stream level p99 | delivery p50 | delivery p99 | events | from the commit p50 | from the commit p99 |");
            println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        } else {
            println!("| store | p50 | p99 | steps/s | stream level p99 | delivery p50 | delivery p99 | events |");
            println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
        }
        for s in summary {
            let (p50, p99, rate) = s.paced.unwrap_or_default();
            let (sp99, d50, d99, events) = s.stream.unwrap_or_default();
            let more = match s.from_commit {
                Some((c50, c99)) if trace => format!(" {c50:.1} ms | {c99:.1} ms |"),
                _ if trace => " – | – |".to_string(),
                _ => String::new(),
            };
            println!(
                "| {} | {p50:.2} ms | {p99:.2} ms | {rate:.0} | {sp99:.2} ms | {d50:.1} ms | {d99:.1} ms | {events} |{more}",
                s.store
            );
        }
        anyhow::Ok(())
    })
}
