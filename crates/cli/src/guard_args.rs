//! The flags every local service shares for its guard (docs/security.md):
//! `sentience serve`, `sentience tools` and `sentience mcp --http` each
//! flatten `GuardArgs` and add their own key flag.

use sentience_guard::{GuardConfig, RateLimit};
use std::net::IpAddr;

#[derive(clap::Args, Debug, Clone, Default)]
pub struct GuardArgs {
    /// A web origin (e.g. https://app.example.com) whose pages may call the
    /// server (CORS). Requests carrying any other Origin are refused (403).
    /// Repeatable, or comma-separated in the environment variable.
    #[arg(
        long = "allow-origin",
        alias = "cors-origin",
        env = "CORS_ORIGINS",
        value_delimiter = ','
    )]
    pub allow_origin: Vec<String>,
    /// A Host name the server answers to besides localhost and its bound
    /// address (a reverse proxy's public name; `name` or `name:port`).
    #[arg(long = "allowed-host", env = "ALLOWED_HOSTS", value_delimiter = ',')]
    pub allowed_host: Vec<String>,
    /// Requests per second per caller (API key, else client address); 0: no
    /// limit. Default: none on loopback, 50 when bound beyond it.
    #[arg(long, env = "RATE_LIMIT")]
    pub rate_limit: Option<u32>,
    /// Burst above the rate (default: twice the rate).
    #[arg(long, env = "RATE_BURST")]
    pub rate_burst: Option<u32>,
}

/// Requests per second per caller when bound beyond loopback and none is set.
const EXPOSED_RATE: u32 = 50;

impl GuardArgs {
    /// The guard's configuration for a server bound to `bind` with `keys`.
    pub fn config(&self, bind: IpAddr, keys: Vec<String>) -> anyhow::Result<GuardConfig> {
        for o in &self.allow_origin {
            let o = o.trim_end_matches('/');
            let ok = o.split_once("://").is_some_and(|(scheme, rest)| {
                !scheme.is_empty() && !rest.is_empty() && !rest.contains('/')
            });
            if !ok {
                anyhow::bail!(
                    "--allow-origin takes an origin like https://app.example.com \
                     (scheme, host, optional port; no path): {o}"
                );
            }
        }
        for h in &self.allowed_host {
            if h.is_empty() || h.contains('/') || h.contains("://") {
                anyhow::bail!("--allowed-host takes a host name, optionally with :port (no scheme, no path): {h}");
            }
        }
        let rate = self
            .rate_limit
            .unwrap_or(if bind.is_loopback() { 0 } else { EXPOSED_RATE });
        Ok(GuardConfig {
            allowed_hosts: self.allowed_host.clone(),
            allowed_origins: self
                .allow_origin
                .iter()
                .filter(|o| !o.is_empty())
                .map(|o| o.trim_end_matches('/').to_string())
                .collect(),
            keys: keys.into_iter().filter(|k| !k.trim().is_empty()).collect(),
            open_paths: Vec::new(),
            rate: RateLimit::new(rate, self.rate_burst),
        })
    }
}
