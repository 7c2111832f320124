//! The processes `sentience bench-server` measures (bench_server.rs): one
//! `sentience serve` on SQLite, or one or several on a fresh PostgreSQL
//! schema, behind the bench's proxy or not, or a server inside this process.

use crate::bench_commits::Commits;
use crate::bench_procs::{stat, Readers};
use crate::bench_server::Args;
use anyhow::{bail, Context};
use sentience_agent::ScorerPolicy;
use sentience_server::{AppState, ServerConfig, Store};
use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;

/// The processes serving one store, and where the load goes.
pub(crate) struct Target {
    /// Where requests go (a server, or the proxy).
    pub(crate) addr: String,
    /// Where streams connect (the servers themselves).
    pub(crate) servers: Vec<String>,
    pub(crate) pids: Vec<u32>,
    pub(crate) children: Vec<Child>,
    /// The SQLite store's directory.
    pub(crate) db_dir: Option<std::path::PathBuf>,
    /// PostgreSQL: (admin URL, schema) to drop, and its server process (if
    /// on this machine: its children are the backends and writers).
    pub(crate) schema: Option<(String, String)>,
    pub(crate) postmaster: Option<u32>,
    /// The round-robin proxy, when requests go through one.
    pub(crate) proxy: Option<crate::bench_proxy::Proxy>,
    /// The load generator's stream readers.
    pub(crate) readers: Readers,
    /// Keeps the in-process server's runtime alive.
    pub(crate) _rt: Option<tokio::runtime::Runtime>,
    /// The servers' traced commits (`--commit-trace`).
    pub(crate) commits: Option<Commits>,
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

/// Starts `<exe> serve …`; with `commits`, the server also traces each
/// turn's commit, read from its stderr into `commits` (bench_commits.rs).
fn spawn_serve(
    exe: &std::path::Path,
    args: &[String],
    commits: Option<&Commits>,
) -> anyhow::Result<(Child, String)> {
    let mut log = std::env::var("RUST_LOG").unwrap_or_else(|_| "warn".into());
    if commits.is_some() {
        log.push_str(",sentience_server::commits=trace");
    }
    let mut cmd = Command::new(exe);
    cmd.arg("serve")
        .args(["--port", "0", "--host", "127.0.0.1"])
        .args(args)
        .env("RUST_LOG", log)
        .env_remove("LLM_API_KEY")
        .env_remove("SENTIENCE_API_KEY")
        .env_remove("DATABASE_URL")
        .env_remove("S2_PORT")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(if commits.is_some() {
            Stdio::piped()
        } else {
            Stdio::inherit()
        });
    let mut child = cmd.spawn().context("starting `sentience serve`")?;
    if let (Some(into), Some(err)) = (commits, child.stderr.take()) {
        crate::bench_commits::collect(err, into.clone());
    }
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

pub(crate) async fn drop_schema(url: &str, schema: &str) {
    if let Ok((client, conn)) = tokio_postgres::connect(url, tokio_postgres::NoTls).await {
        tokio::spawn(conn);
        let _ = client
            .batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
            .await;
    }
}

pub(crate) async fn start_target(a: &Args, store: &str, n: usize) -> anyhow::Result<Target> {
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
        commits: a.commit_trace.then(Commits::default),
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
        let (child, addr) = spawn_serve(&exe, &args, t.commits.as_ref())?;
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
        let (child, addr) = spawn_serve(&exe, &args, t.commits.as_ref())?;
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
