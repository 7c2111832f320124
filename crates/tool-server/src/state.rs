//! Server state: configuration, the browser launcher, the desktop (if an X
//! display is there) and the browser sessions with the active one
//! (docs/contracts/tools.md §2: "when omitted, the active session is used").

use crate::browser::{BrowserLauncher, BrowserSession, LaunchRequest};
use crate::desktop::Desktop;
use crate::error::{ToolError, ToolResult};
use sentience_guard::{Guard, GuardConfig};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::Mutex;

pub struct Config {
    /// The address the server is bound to (the port `Host` must carry).
    pub bound: SocketAddr,
    /// Who may call (docs/security.md): with `keys` (`--token`) every request
    /// needs `Authorization: Bearer <token>`; `allowed_origins` may call from
    /// a web page (CORS + Private Network Access); extra Host names.
    pub guard: GuardConfig,
    /// Where named profiles live (`<root>/<profile>`).
    pub profile_root: PathBuf,
}

pub struct Session {
    pub id: String,
    pub profile_dir: PathBuf,
    pub browser: Arc<dyn BrowserSession>,
}

#[derive(Default)]
pub struct Sessions {
    pub map: BTreeMap<String, Arc<Session>>,
    pub active: Option<String>,
    /// Every id ever given, so a stopped session's id is never reused.
    pub issued: std::collections::BTreeSet<String>,
}

#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub launcher: Arc<dyn BrowserLauncher>,
    /// The desktop, or why it is unavailable (no DISPLAY, no XTest…).
    pub desktop: Arc<Result<Arc<dyn Desktop>, String>>,
    pub sessions: Arc<Mutex<Sessions>>,
    /// Serialises session starts, so two starts cannot take one profile.
    pub starting: Arc<Mutex<()>>,
    /// Host, Origin, token and rate limits, before every route.
    pub guard: Guard,
}

impl AppState {
    pub fn new(
        config: Config,
        launcher: Arc<dyn BrowserLauncher>,
        desktop: Result<Arc<dyn Desktop>, String>,
    ) -> AppState {
        let guard = Guard::new(config.guard.clone(), crate::error::refusal);
        guard.listening_on(config.bound);
        AppState {
            guard,
            config: Arc::new(config),
            launcher,
            desktop: Arc::new(desktop),
            sessions: Arc::default(),
            starting: Arc::default(),
        }
    }

    pub fn desktop(&self) -> ToolResult<Arc<dyn Desktop>> {
        match self.desktop.as_ref() {
            Ok(d) => Ok(d.clone()),
            Err(why) => Err(ToolError::Unavailable(format!(
                "Desktop scope unavailable: {why}"
            ))),
        }
    }

    /// The session named, or the active one when `id` is None.
    pub async fn session(&self, id: Option<&str>) -> ToolResult<Arc<Session>> {
        let sessions = self.sessions.lock().await;
        let id = match id.filter(|s| !s.is_empty()) {
            Some(id) => id.to_string(),
            None => sessions.active.clone().ok_or_else(|| {
                ToolError::SessionNotFound(
                    "no active session (start one with POST /browser/start)".into(),
                )
            })?,
        };
        sessions
            .map
            .get(&id)
            .cloned()
            .ok_or(ToolError::SessionNotFound(id))
    }

    pub async fn start_session(
        &self,
        profile: &str,
        headless: bool,
        start_url: Option<String>,
    ) -> ToolResult<Arc<Session>> {
        let _one_at_a_time = self.starting.lock().await;
        let profile_dir = self.config.profile_root.join(profile);
        // A session of ours on this profile whose browser died (crash,
        // closed by hand) frees the profile; a live one holds it.
        let holder = {
            let sessions = self.sessions.lock().await;
            sessions
                .map
                .values()
                .find(|s| s.profile_dir == profile_dir)
                .cloned()
        };
        if let Some(s) = holder {
            if s.browser.is_alive().await {
                return Err(ToolError::Conflict(format!(
                    "Browser profile {profile:?} is already in use by {}: stop it first, or start with another \"profile\"",
                    s.id
                )));
            }
            self.remove_session(&s.id).await;
            s.browser.close().await;
        }
        let browser = self
            .launcher
            .launch(LaunchRequest {
                profile_dir: profile_dir.clone(),
                headless,
                start_url,
                viewport: crate::geometry::DEFAULT_VIEWPORT,
            })
            .await?;
        let mut sessions = self.sessions.lock().await;
        let id = unique_session_id(&sessions.issued);
        sessions.issued.insert(id.clone());
        let session = Arc::new(Session {
            id: id.clone(),
            profile_dir,
            browser,
        });
        sessions.map.insert(id.clone(), session.clone());
        sessions.active = Some(id);
        Ok(session)
    }

    pub async fn remove_session(&self, id: &str) -> Option<Arc<Session>> {
        let mut sessions = self.sessions.lock().await;
        let s = sessions.map.remove(id);
        if sessions.active.as_deref() == Some(id) {
            sessions.active = sessions.map.keys().next_back().cloned();
        }
        s
    }
}

/// docs/contracts/tools.md §11: `session-20260112-143052` (local time); a suffix keeps two
/// sessions started in the same second apart.
fn unique_session_id(existing: &std::collections::BTreeSet<String>) -> String {
    let base = format!("session-{}", chrono::Local::now().format("%Y%m%d-%H%M%S"));
    if !existing.contains(&base) {
        return base;
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|id| !existing.contains(id))
        .unwrap_or(base)
}
