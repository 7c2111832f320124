//! Server configuration and the state every handler shares.

use crate::locks::RunLocks;
use crate::store::Store;
use sentience_agent::Policy;
use std::sync::Arc;
use std::time::Duration;

/// Defaults documented in docs/server.md.
pub const DEFAULT_MAX_BODY_BYTES: usize = 16 * 1024 * 1024;
pub const DEFAULT_RUN_TTL: Duration = Duration::from_secs(24 * 3600);

#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// When set, every route but GET /health needs `Authorization: Bearer <key>`.
    pub api_key: Option<String>,
    /// Origins allowed by CORS besides every `chrome-extension://` origin.
    pub cors_origins: Vec<String>,
    /// Bodies over this many bytes get 413 (snapshots with a screenshot are big).
    pub max_body_bytes: usize,
    /// A run idle for longer is deleted; requests for it get 404.
    pub run_ttl: Duration,
    /// System 2 screenshot URLs: fetch timeout and size cap.
    pub screenshot_timeout: Duration,
    pub screenshot_max_bytes: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            api_key: None,
            cors_origins: Vec::new(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            run_ttl: DEFAULT_RUN_TTL,
            screenshot_timeout: Duration::from_secs(10),
            screenshot_max_bytes: 10 * 1024 * 1024,
        }
    }
}

pub struct Inner {
    pub config: ServerConfig,
    pub store: Store,
    pub policy: Arc<dyn Policy>,
    pub locks: RunLocks,
    pub http: reqwest::Client,
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
        AppState(Arc::new(Inner {
            config,
            store,
            policy,
            locks: RunLocks::default(),
            http,
        }))
    }
}

impl std::ops::Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}
