//! `sentience serve`: the agent server on http://127.0.0.1:3131 (loopback by
//! default). Prints `listening on http://ADDR` as its first stdout line so
//! scripts and tests can start it with `--port 0` and read the port. Runs
//! live in SQLite under the data directory, or, with `--database
//! postgres://…` (`DATABASE_URL`), in PostgreSQL, shared by any number of
//! replicas (docs/server.md "Running several replicas").

use crate::guard_args::GuardArgs;
use anyhow::Context;
use sentience_agent::llm::{LlmConfig, LlmPolicy, DEFAULT_BASE_URL, DEFAULT_MODEL};
use sentience_agent::{Policy, ScorerPolicy};
use sentience_server::{AppState, PgOptions, ServerConfig, Store};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The decision engine: an OpenAI-compatible LLM when a key is set, else the
/// built-in System 2 scorer. Shared by `serve` and `run`.
#[derive(clap::Args, Debug, Clone)]
pub struct LlmArgs {
    /// OpenAI-compatible endpoint; used only when an API key is set.
    #[arg(long, env = "LLM_BASE_URL", default_value = DEFAULT_BASE_URL)]
    llm_base_url: String,
    /// Key for the LLM endpoint; without one the built-in System 2 scorer decides.
    #[arg(long, env = "LLM_API_KEY", hide_env_values = true)]
    llm_api_key: Option<String>,
    #[arg(long, env = "LLM_MODEL", default_value = DEFAULT_MODEL)]
    llm_model: String,
    #[arg(long, env = "LLM_TIMEOUT_SECS", default_value_t = 60)]
    llm_timeout_secs: u64,
    #[arg(long, env = "LLM_MAX_RETRIES", default_value_t = 2)]
    llm_max_retries: u32,
    /// First retry backoff in milliseconds (doubles each retry).
    #[arg(long, env = "LLM_BACKOFF_MS", default_value_t = 500)]
    llm_backoff_ms: u64,
    /// Offer OpenAI tool definitions (false: strict JSON replies only).
    #[arg(long, env = "LLM_TOOL_CALLS", default_value_t = true, action = clap::ArgAction::Set)]
    llm_tool_calls: bool,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Port of the run API (docs/contracts/run-api.md default 3131; 0 picks a free one).
    #[arg(long, env = "PORT", default_value_t = 3131)]
    port: u16,
    /// Address to bind. Loopback by default; any other address needs
    /// --api-key (docs/security.md).
    #[arg(long, env = "SENTIENCE_HOST", default_value = "127.0.0.1")]
    host: String,
    /// Also serve on this port (the System 2 API's port is 8000: docs/contracts/system2.md §1).
    #[arg(long = "s2-port", env = "S2_PORT", value_name = "S2_PORT")]
    system2_port: Option<u16>,
    /// Directory for the run database (runs.sqlite3).
    #[arg(long, env = "SENTIENCE_DATA_DIR")]
    data_dir: Option<PathBuf>,
    /// Database file (overrides --data-dir).
    #[arg(long, env = "SENTIENCE_DB")]
    db: Option<PathBuf>,
    /// Keep runs in memory only (lost on exit; for tests and demos).
    #[arg(long, conflicts_with = "db")]
    in_memory: bool,
    /// The run database as a URL: `postgres://user:password@host:port/db`
    /// (several replicas may share it), or `sqlite:PATH`. Overrides
    /// --data-dir.
    #[arg(long, env = "DATABASE_URL", hide_env_values = true, conflicts_with_all = ["db", "in_memory"])]
    database: Option<String>,
    /// PostgreSQL connections this replica may open (a step holds one
    /// while its policy decides).
    #[arg(long, env = "DATABASE_POOL", default_value_t = PgOptions::default().pool_size)]
    database_pool: usize,
    /// A run's stream also looks for new events this often (besides each
    /// announcement), in case an announcement between replicas was lost.
    #[arg(long, env = "STREAM_POLL_SECS", default_value_t = 5)]
    stream_poll_secs: u64,
    /// Read every run from the database on every request instead of keeping
    /// used runs in memory (for measurement: `bench-server --no-run-cache`).
    #[arg(long, hide = true)]
    no_run_cache: bool,
    /// On SIGINT/SIGTERM, how long requests in flight may take to finish.
    #[arg(long, env = "SHUTDOWN_GRACE_SECS", default_value_t = 30)]
    shutdown_grace_secs: u64,
    /// Require `Authorization: Bearer <key>` on every route but /health.
    /// Several keys: repeat the flag, or separate them with commas in the
    /// environment variable; rate limits and quotas count per key.
    #[arg(
        long,
        env = "SENTIENCE_API_KEY",
        hide_env_values = true,
        value_delimiter = ','
    )]
    api_key: Vec<String>,
    /// Host, Origin and rate-limit flags (our extension's origin is always
    /// allowed; --allow-origin adds another, e.g. another extension's).
    #[command(flatten)]
    guard: GuardArgs,
    /// Runs one caller may have going at once (created, running or waiting,
    /// used in the last 10 minutes); 0: no limit. Default: none on
    /// loopback, 16 when bound beyond it.
    #[arg(long, env = "MAX_RUNNING_RUNS")]
    max_running_runs: Option<u32>,
    /// Request bodies over this many bytes get 413.
    #[arg(long, env = "MAX_BODY_BYTES", default_value_t = sentience_server::state::DEFAULT_MAX_BODY_BYTES)]
    max_body_bytes: usize,
    /// Runs idle longer than this are deleted (404 afterwards).
    #[arg(long, env = "RUN_TTL_SECS", default_value_t = 86_400)]
    run_ttl_secs: u64,
    /// Browse conversations (POST /browse) idle longer than this are deleted (404 afterwards).
    #[arg(long, env = "BROWSE_TTL_SECS", default_value_t = 1_800)]
    browse_ttl_secs: u64,
    /// Browse messages whose `html` is larger get 413.
    #[arg(long, env = "MAX_HTML_BYTES", default_value_t = sentience_server::state::DEFAULT_MAX_HTML_BYTES)]
    max_html_bytes: usize,
    #[command(flatten)]
    llm: LlmArgs,
}

pub(crate) fn default_data_dir() -> PathBuf {
    if let Some(x) = std::env::var_os("XDG_DATA_HOME") {
        return PathBuf::from(x).join("sentience");
    }
    match std::env::var_os("HOME") {
        Some(h) => PathBuf::from(h).join(".local/share/sentience"),
        None => PathBuf::from(".sentience"),
    }
}

impl LlmArgs {
    /// Whether an LLM key is configured (else the built-in scorer decides).
    pub fn has_key(&self) -> bool {
        self.llm_api_key.as_deref().is_some_and(|k| !k.is_empty())
    }
}

/// The LLM endpoint configured by `LLM_*`, if a key is set.
pub fn llm_config(a: &LlmArgs) -> Option<LlmConfig> {
    let key = a.llm_api_key.as_deref().filter(|k| !k.is_empty())?;
    let mut cfg = LlmConfig::new(a.llm_base_url.clone(), key.to_string(), a.llm_model.clone());
    cfg.timeout = Duration::from_secs(a.llm_timeout_secs.max(1));
    cfg.max_retries = a.llm_max_retries;
    cfg.backoff = Duration::from_millis(a.llm_backoff_ms);
    cfg.tool_calls = a.llm_tool_calls;
    Some(cfg)
}

pub fn policy(a: &LlmArgs) -> anyhow::Result<Arc<dyn Policy>> {
    match llm_config(a) {
        None => Ok(Arc::new(ScorerPolicy)),
        Some(cfg) => Ok(Arc::new(LlmPolicy::new(cfg).map_err(anyhow::Error::msg)?)),
    }
}

/// The database URL without its password, for logs.
fn redacted(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let creds = &url[s + 3..at];
            let user = creds.split(':').next().unwrap_or("");
            format!("{}{user}:***{}", &url[..s + 3], &url[at..])
        }
        _ => url.to_string(),
    }
}

async fn store(a: &Args) -> anyhow::Result<(Store, String)> {
    if a.in_memory {
        return Ok((Store::in_memory()?, "memory".into()));
    }
    let sqlite_url = match a.database.as_deref() {
        Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
            let options = PgOptions {
                pool_size: a.database_pool.max(1),
                ..PgOptions::default()
            };
            let s = Store::connect(url, options)
                .await
                .with_context(|| format!("connecting to {}", redacted(url)))?;
            return Ok((s, redacted(url)));
        }
        Some(url) => Some(
            url.strip_prefix("sqlite://")
                .or_else(|| url.strip_prefix("sqlite:"))
                .map(PathBuf::from)
                .with_context(|| {
                    format!(
                        "--database / DATABASE_URL must be postgres://… or sqlite:PATH, not {}",
                        redacted(url)
                    )
                })?,
        ),
        None => None,
    };
    let path = match sqlite_url.as_ref().or(a.db.as_ref()) {
        Some(p) => p.clone(),
        None => {
            let dir = a.data_dir.clone().unwrap_or_else(default_data_dir);
            std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
            dir.join("runs.sqlite3")
        }
    };
    let s = Store::open(&path).with_context(|| format!("opening {}", path.display()))?;
    Ok((s, path.display().to_string()))
}

/// Ctrl-C, or SIGTERM (what a service manager, a container or a test sends
/// to stop a server): either ends the server cleanly.
pub(crate) async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(t) => t,
                Err(_) => {
                    let _ = ctrl_c.await;
                    return;
                }
            };
        tokio::select! { _ = ctrl_c => {}, _ = term.recv() => {} }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}

pub fn run(a: Args) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,tower_http=warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let rt = tokio::runtime::Runtime::new()?;
    rt.block_on(async move {
        let listener = sentience_server::bind::bind((a.host.as_str(), a.port))
            .await
            .with_context(|| format!("binding {}:{}", a.host, a.port))?;
        let addr = listener.local_addr()?;
        let guard = a.guard.config(addr.ip(), a.api_key.clone())?;
        sentience_guard::check_bind(addr.ip(), !guard.keys.is_empty(), "the agent server (and your LLM key)", "--api-key")?;
        let (store, where_) = store(&a).await?;
        let max_running_runs = a
            .max_running_runs
            .unwrap_or(if addr.ip().is_loopback() { 0 } else { 16 });
        let config = ServerConfig {
            guard,
            max_running_runs,
            max_body_bytes: a.max_body_bytes,
            run_ttl: Duration::from_secs(a.run_ttl_secs.max(1)),
            browse_ttl: Duration::from_secs(a.browse_ttl_secs.max(1)),
            max_html_bytes: a.max_html_bytes,
            browse_llm: llm_config(&a.llm),
            stream_poll: Duration::from_secs(a.stream_poll_secs.max(1)),
            cache_runs: !a.no_run_cache,
            ..ServerConfig::default()
        };
        let state = AppState::new(config, store, policy(&a.llm)?);
        let mut out = std::io::stdout();
        writeln!(out, "listening on http://{addr}")?;
        if let Some(p) = a.system2_port {
            let l2 = sentience_server::bind::bind((a.host.as_str(), p))
                .await
                .with_context(|| format!("binding {}:{p}", a.host))?;
            writeln!(out, "s2 listening on http://{}", l2.local_addr()?)?;
            let system2_state = state.clone();
            tokio::spawn(async move {
                if let Err(e) = sentience_server::serve_router(l2, system2_state, std::future::pending()).await {
                    tracing::error!(error = %e, "s2 listener failed");
                }
            });
        }
        out.flush()?;
        let info = state.policy.info();
        let engine = state.store.engine().name();
        tracing::info!(%addr, store = engine, db = %where_, policy = %info.policy, model = %info.model, "agent server ready");
        let grace = Duration::from_secs(a.shutdown_grace_secs);
        sentience_server::serve_draining(listener, state, shutdown_signal(), grace).await?;
        Ok(())
    })
}
