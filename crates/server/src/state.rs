//! Server configuration and the state every handler shares.

use crate::live::LiveRuns;
use crate::store::Store;
use sentience_agent::Policy;
use sentience_guard::{Guard, GuardConfig};
use std::sync::Arc;
use std::time::Duration;

/// Defaults documented in docs/server.md.
pub const DEFAULT_MAX_BODY_BYTES: usize = 16 * 1024 * 1024;
pub const DEFAULT_RUN_TTL: Duration = Duration::from_secs(24 * 3600);
pub const DEFAULT_CACHE_CAPACITY: usize = 10_000;
pub const DEFAULT_CACHE_IDLE: Duration = Duration::from_secs(10 * 60);
/// Browse conversations idle for longer are deleted (docs/contracts/browse.md §7).
pub const DEFAULT_BROWSE_TTL: Duration = Duration::from_secs(30 * 60);
/// Largest `html` a browse message may carry (docs/contracts/browse.md §8).
pub const DEFAULT_MAX_HTML_BYTES: usize = 5 * 1024 * 1024;

#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Who may call (docs/security.md): extra Host names, origins besides
    /// our extension's (`layers::EXTENSION_ORIGIN`, always allowed by the guard), API
    /// keys (with any, every route but GET /health needs
    /// `Authorization: Bearer <key>`), requests per second per caller.
    pub guard: GuardConfig,
    /// Runs a caller (API key, else client address) may have going at
    /// once: created, running or waiting for the user, and used within
    /// `cache_idle`. 0: no limit.
    pub max_running_runs: u32,
    /// Bodies over this many bytes get 413 (snapshots with a screenshot are big).
    pub max_body_bytes: usize,
    /// A run idle for longer is deleted; requests for it get 404.
    pub run_ttl: Duration,
    /// System 2 screenshot URLs: fetch timeout and size cap.
    pub screenshot_timeout: Duration,
    pub screenshot_max_bytes: usize,
    /// Runs kept in memory (the live-run cache) at most...
    pub cache_capacity: usize,
    /// ...and for at most this long after their last request; evicted runs
    /// are reloaded from the database when next used.
    pub cache_idle: Duration,
    /// A browse conversation idle for longer is deleted; its id then gets 404.
    pub browse_ttl: Duration,
    /// Browse messages whose `html` is larger get 413.
    pub max_html_bytes: usize,
    /// The browse LLM policy's endpoint; `None`: the built-in policy.
    pub browse_llm: Option<sentience_agent::llm::LlmConfig>,
    /// Keep used runs in memory between requests (checked against the
    /// stored version on PostgreSQL). Off: every request reads the run
    /// from the database (measured in docs/benchmarks.md; for comparison).
    pub cache_runs: bool,
    /// A run's stream looks for new events at least this often, besides
    /// every announcement (covers announcements lost between replicas).
    pub stream_poll: Duration,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            guard: GuardConfig::default(),
            max_running_runs: 0,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            run_ttl: DEFAULT_RUN_TTL,
            screenshot_timeout: Duration::from_secs(10),
            screenshot_max_bytes: 10 * 1024 * 1024,
            cache_capacity: DEFAULT_CACHE_CAPACITY,
            cache_idle: DEFAULT_CACHE_IDLE,
            browse_ttl: DEFAULT_BROWSE_TTL,
            max_html_bytes: DEFAULT_MAX_HTML_BYTES,
            browse_llm: None,
            cache_runs: true,
            stream_poll: Duration::from_secs(5),
        }
    }
}

/// One lock per browse conversation in use, so that two messages of the
/// same conversation are handled one after the other (each sees the state
/// the previous one left), never both from the same stored state.
#[derive(Default)]
pub struct SessionLocks(
    std::sync::Mutex<std::collections::HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
);

impl SessionLocks {
    pub fn get(&self, id: &str) -> Arc<tokio::sync::Mutex<()>> {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // Locks nobody holds or waits for are dropped as we go.
        map.retain(|_, l| Arc::strong_count(l) > 1);
        map.entry(id.to_string()).or_default().clone()
    }
}

pub struct Inner {
    pub config: ServerConfig,
    pub store: Store,
    pub policy: Arc<dyn Policy>,
    /// Cached runs, and the per-run lock.
    pub live: LiveRuns,
    pub http: reqwest::Client,
    pub browse_locks: SessionLocks,
    /// Host, Origin, keys and rate limits, before every route.
    pub guard: Guard,
    /// The per-caller rate, when the store keeps it for every replica
    /// (PostgreSQL; `shared_rate.rs`) instead of the guard in this process.
    pub shared_rate: Option<sentience_guard::RateLimit>,
    /// Set when the server starts to stop: streams and WebSockets close.
    stopping: tokio::sync::watch::Sender<bool>,
}

/// Cheap to clone: one `Arc`.
#[derive(Clone)]
pub struct AppState(pub Arc<Inner>);

impl AppState {
    pub fn new(config: ServerConfig, store: Store, policy: Arc<dyn Policy>) -> AppState {
        let http = reqwest::Client::builder()
            .timeout(config.screenshot_timeout)
            .build()
            .unwrap_or_default();
        let live = LiveRuns::new(config.cache_capacity);
        let mut guard = config.guard.clone();
        guard.open_paths.push("/health".into());
        // Several replicas share one PostgreSQL database: a caller's rate
        // is counted there, for all of them (docs/server.md "Running
        // several replicas"), not by each replica's guard.
        let shared_rate = match store.engine() {
            crate::store::Engine::Postgres => guard.rate.take(),
            crate::store::Engine::Sqlite => None,
        };
        let guard = Guard::new(guard, crate::layers::respond);
        AppState(Arc::new(Inner {
            config,
            store,
            policy,
            live,
            http,
            browse_locks: SessionLocks::default(),
            guard,
            shared_rate,
            stopping: tokio::sync::watch::Sender::new(false),
        }))
    }

    /// Starts stopping: open streams and WebSockets are closed (1001) so
    /// that clients reconnect elsewhere; requests in flight finish.
    pub fn stop(&self) {
        self.stopping.send_replace(true);
    }

    /// Resolves (`wait_for(|s| *s)`) once `stop` was called.
    pub fn stopping(&self) -> tokio::sync::watch::Receiver<bool> {
        self.stopping.subscribe()
    }
}

impl std::ops::Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}
