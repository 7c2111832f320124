//! The transaction one `/step` makes on PostgreSQL (lock the run's row,
//! write the run, its reply and its events, commit), run by `C` concurrent
//! tasks through each driver in turn, alternating rounds, in one process:
//! latency per transaction (p50, p99) and this process's CPU per
//! transaction (what the driver costs the server). Usage:
//!   pg-driver-probe URL [concurrency=8] [transactions per round=4000] [rounds=3]
//! The cluster's own fsync is taken out (`synchronous_commit = off` per
//! session) so that the figures are the drivers', not the disk's.

use std::time::{Duration, Instant};

const SCHEMA: &str = "
DROP TABLE IF EXISTS probe_runs, probe_events;
CREATE TABLE probe_runs (run_id TEXT PRIMARY KEY, version BIGINT NOT NULL, body TEXT NOT NULL);
CREATE TABLE probe_events (run_id TEXT NOT NULL, seq BIGINT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (run_id, seq));";
const LOCK: &str = "SELECT version, CASE WHEN version <> $2 THEN body END FROM probe_runs WHERE run_id = $1 FOR UPDATE";
const UPDATE: &str = "UPDATE probe_runs SET body = $2, version = version + 1 WHERE run_id = $1";
const EVENT: &str = "INSERT INTO probe_events (run_id, seq, body) VALUES ($1, $2, $3)";

fn cpu() -> Duration {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = s.rsplit_once(')').map(|x| x.1).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let t = f.get(11).and_then(|x| x.parse::<u64>().ok()).unwrap_or(0)
        + f.get(12).and_then(|x| x.parse::<u64>().ok()).unwrap_or(0);
    Duration::from_millis(t * 10)
}

fn pct(v: &mut [Duration], p: f64) -> f64 {
    v.sort();
    v[((v.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1e3
}

async fn tokio_pg(
    pool: deadpool_postgres::Pool,
    id: String,
    n: usize,
    body: String,
) -> Vec<Duration> {
    let mut lat = Vec::with_capacity(n);
    let mut version: i64 = 0;
    let mut seq: i64 = 0;
    for _ in 0..n {
        let t = Instant::now();
        let mut c = pool.get().await.expect("pool");
        let tx = c.transaction().await.expect("begin");
        let lock = tx.prepare_cached(LOCK).await.expect("prepare");
        let row = tx.query_one(&lock, &[&id, &version]).await.expect("lock");
        let v: i64 = row.get(0);
        let _stale: Option<String> = row.get(1);
        let up = tx.prepare_cached(UPDATE).await.expect("prepare");
        let ev = tx.prepare_cached(EVENT).await.expect("prepare");
        seq += 1;
        let evbody = "{\"type\":\"tool_proposed\"}";
        let (p1, p2): (
            &[&(dyn tokio_postgres::types::ToSql + Sync)],
            &[&(dyn tokio_postgres::types::ToSql + Sync)],
        ) = (&[&id, &body], &[&id, &seq, &evbody]);
        // Pipelined: both statements are sent before either answer is read.
        let (a, b) = tokio::join!(tx.execute(&up, p1), tx.execute(&ev, p2));
        a.expect("update");
        b.expect("event");
        tx.commit().await.expect("commit");
        version = v + 1;
        lat.push(t.elapsed());
    }
    lat
}

async fn sqlx_pg(pool: sqlx::PgPool, id: String, n: usize, body: String) -> Vec<Duration> {
    let mut lat = Vec::with_capacity(n);
    let mut version: i64 = 0;
    let mut seq: i64 = 0;
    for _ in 0..n {
        let t = Instant::now();
        let mut tx = pool.begin().await.expect("begin");
        let (v, _stale): (i64, Option<String>) = sqlx::query_as(LOCK)
            .bind(&id)
            .bind(version)
            .fetch_one(&mut *tx)
            .await
            .expect("lock");
        sqlx::query(UPDATE)
            .bind(&id)
            .bind(&body)
            .execute(&mut *tx)
            .await
            .expect("update");
        seq += 1;
        sqlx::query(EVENT)
            .bind(&id)
            .bind(seq)
            .bind("{\"type\":\"tool_proposed\"}")
            .execute(&mut *tx)
            .await
            .expect("event");
        tx.commit().await.expect("commit");
        version = v + 1;
        lat.push(t.elapsed());
    }
    lat
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let url = args
        .get(1)
        .expect("usage: pg-driver-probe URL [concurrency] [transactions] [rounds]")
        .clone();
    let c: usize = args.get(2).and_then(|x| x.parse().ok()).unwrap_or(8);
    let total: usize = args.get(3).and_then(|x| x.parse().ok()).unwrap_or(4000);
    let rounds: usize = args.get(4).and_then(|x| x.parse().ok()).unwrap_or(3);
    // A run's stored JSON is a few KB (its snapshot text dominates).
    let body = format!(
        "{{\"runId\":\"x\",\"currentSnapshot\":\"{}\"}}",
        "e".repeat(4000)
    );

    let mut cfg: tokio_postgres::Config = url.parse().expect("url");
    cfg.options("-c synchronous_commit=off");
    let mgr = deadpool_postgres::Manager::from_config(
        cfg,
        tokio_postgres::NoTls,
        deadpool_postgres::ManagerConfig {
            recycling_method: deadpool_postgres::RecyclingMethod::Fast,
        },
    );
    let dp = deadpool_postgres::Pool::builder(mgr)
        .max_size(c)
        .build()
        .expect("pool");
    let opts: sqlx::postgres::PgConnectOptions = url.parse().expect("url");
    let opts = opts.options([("synchronous_commit", "off")]);
    let sp = sqlx::postgres::PgPoolOptions::new()
        .max_connections(c as u32)
        .connect_with(opts)
        .await
        .expect("sqlx connect");
    dp.get()
        .await
        .expect("pool")
        .batch_execute(SCHEMA)
        .await
        .expect("schema");
    println!("{c} concurrent tasks, {total} transactions per round, {rounds} rounds (alternating drivers)");
    for round in 0..rounds {
        for driver in ["tokio-postgres+deadpool", "sqlx"] {
            // Fresh rows per round and driver (sequences start at 1).
            let client = dp.get().await.expect("pool");
            for i in 0..c {
                client
                    .execute(
                        "INSERT INTO probe_runs VALUES ($1, 0, '')",
                        &[&format!("{driver}-{round}-{i}")],
                    )
                    .await
                    .expect("insert");
            }
            drop(client);
            let c0 = cpu();
            let t0 = Instant::now();
            let mut tasks = Vec::new();
            for i in 0..c {
                let id = format!("{driver}-{round}-{i}");
                let n = total / c;
                let body = body.clone();
                if driver == "sqlx" {
                    tasks.push(tokio::spawn(sqlx_pg(sp.clone(), id, n, body)));
                } else {
                    tasks.push(tokio::spawn(tokio_pg(dp.clone(), id, n, body)));
                }
            }
            let mut all = Vec::new();
            for t in tasks {
                all.extend(t.await.expect("task"));
            }
            let wall = t0.elapsed();
            let used = cpu() - c0;
            let n = all.len();
            println!(
                "round {round} {driver:>24}: p50 {:.3} ms  p99 {:.3} ms  {:.0} tx/s  client CPU {:.0} µs/tx",
                pct(&mut all, 0.5),
                pct(&mut all, 0.99),
                n as f64 / wall.as_secs_f64(),
                used.as_secs_f64() * 1e6 / n as f64
            );
        }
    }
}
