//! What `sentience run`, `snapshot` and `browse` start before their work,
//! in one place: the page to start at (`--url`, or the bundled demo store
//! served on 127.0.0.1:0), the agent server (`--server`, or one in this
//! process on 127.0.0.1:0) and Chromium with the extension. Each returns a
//! guard: what it started lives as long as the guard.

use crate::browser::{find_extension_dir, BrowserOptions, ExtensionBrowser};
use crate::demo_site::{self, DemoSite};
use crate::serve::{llm_config, policy, LlmArgs};
use anyhow::Result;
use std::path::Path;
use tokio::task::JoinHandle;

/// The page to start at, and the demo site serving it (when `--url` was
/// not given).
pub struct StartPage {
    pub url: String,
    _demo: Option<DemoSite>,
}

/// `--url`, or the demo store's home page on a server of its own.
pub async fn start_page(url: Option<&str>) -> Result<StartPage> {
    Ok(match url {
        Some(u) => StartPage {
            url: u.to_string(),
            _demo: None,
        },
        None => {
            let demo = demo_site::start().await?;
            StartPage {
                url: format!("{}/index.html", demo.base_url),
                _demo: Some(demo),
            }
        }
    })
}

/// The agent server's base URL, and its task when it runs in this process.
pub struct AgentServer {
    pub url: String,
    _task: Option<JoinHandle<()>>,
}

/// `--server` (its trailing slash dropped), or an agent server started in
/// this process with `llm`'s policy.
pub async fn agent_server(server: Option<&str>, llm: &LlmArgs) -> Result<AgentServer> {
    Ok(match server {
        Some(url) => AgentServer {
            url: url.trim_end_matches('/').to_string(),
            _task: None,
        },
        None => {
            let (url, task) = start_server(llm).await?;
            AgentServer {
                url,
                _task: Some(task),
            }
        }
    })
}

/// Starts the agent server on 127.0.0.1:0 inside this process, the same
/// LLM for runs and for the browse protocol.
async fn start_server(llm: &LlmArgs) -> Result<(String, JoinHandle<()>)> {
    let store = sentience_server::Store::in_memory()?;
    let config = sentience_server::ServerConfig {
        browse_llm: llm_config(llm),
        ..sentience_server::ServerConfig::default()
    };
    let state = sentience_server::AppState::new(config, store, policy(llm)?);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let task = tokio::spawn(async move {
        let _ = sentience_server::serve(listener, state).await;
    });
    Ok((format!("http://{addr}"), task))
}

/// Chromium with the extension (`--extension`, or found next to the
/// binary or in the working directory), at the viewport every command uses.
pub async fn extension_browser(
    extension: Option<&Path>,
    chromium: &Path,
    headed: bool,
) -> Result<ExtensionBrowser> {
    let extension_dir = find_extension_dir(extension)?;
    ExtensionBrowser::launch(&BrowserOptions {
        extension_dir,
        chromium: chromium.to_path_buf(),
        headed,
        width: 1280,
        height: 800,
    })
    .await
}
