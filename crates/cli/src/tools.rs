//! `sentience tools`: the tool server of docs/tools.md (docs/contracts/tools.md) with the
//! real backends: Chromium over CDP with the extension, and the X display.

use crate::browser::find_extension_dir;
use crate::guard_args::GuardArgs;
use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use sentience_tool_server::browser::cdp::ChromiumLauncher;
use sentience_tool_server::desktop::x11::X11Desktop;
use sentience_tool_server::desktop::Desktop;
use sentience_tool_server::{router, serve, AppState, Config};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

#[derive(ClapArgs)]
pub struct Args {
    /// Address to bind. Anything but loopback requires --token.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Port (0 picks a free one and prints it).
    #[arg(long, env = "TOOLS_PORT", default_value_t = 8765)]
    port: u16,
    /// Where the persistent browser profiles live (one directory per
    /// profile name; default: the user's data directory).
    #[arg(long)]
    profile_dir: Option<PathBuf>,
    /// The browser executable (Chromium, Chrome or Edge).
    #[arg(long, env = "SENTIENCE_BROWSER", default_value = "/usr/bin/chromium")]
    browser: PathBuf,
    /// The unpacked extension to load into sessions (default: found from
    /// the current directory or the binary's location).
    #[arg(long)]
    extension: Option<PathBuf>,
    /// Require `Authorization: Bearer <TOKEN>` on every request.
    #[arg(long, env = "SENTIENCE_TOOLS_TOKEN", hide_env_values = true)]
    token: Option<String>,
    /// Host, Origin and rate-limit flags (docs/security.md): --allow-origin
    /// lets a web app's pages call the server (CORS + Private Network Access).
    #[command(flatten)]
    guard: GuardArgs,
    /// The X display for the desktop scope (default: $DISPLAY).
    #[arg(long)]
    display: Option<String>,
}

fn default_profile_root() -> PathBuf {
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(std::env::temp_dir);
    data.join("sentience").join("tools-profiles")
}

pub fn run(args: Args) -> Result<()> {
    let guard = args
        .guard
        .config(args.host, args.token.clone().into_iter().collect())?;
    sentience_guard::check_bind(
        args.host,
        !guard.keys.is_empty(),
        "this machine's browser and desktop",
        "--token",
    )?;
    let extension_dir = match find_extension_dir(args.extension.as_deref()) {
        Ok(d) => Some(d),
        Err(e) => {
            eprintln!("warning: {e:#}; sessions run without the extension (/browser/snapshot and /browser/act unavailable)");
            None
        }
    };
    let desktop: Result<Arc<dyn Desktop>, String> =
        X11Desktop::connect(args.display.as_deref()).map(|d| Arc::new(d) as Arc<dyn Desktop>);
    if let Err(why) = &desktop {
        eprintln!("warning: desktop scope unavailable: {why}");
    }
    let profile_root = args.profile_dir.unwrap_or_else(default_profile_root);
    tokio::runtime::Runtime::new()?.block_on(async move {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(args.host, args.port))
            .await
            .with_context(|| format!("binding {}:{}", args.host, args.port))?;
        let bound = listener.local_addr()?;
        let state = AppState::new(
            Config {
                bound,
                guard,
                profile_root,
            },
            Arc::new(ChromiumLauncher {
                executable: args.browser,
                extension_dir,
                extra_args: Vec::new(),
            }),
            desktop,
        );
        let sessions = state.clone();
        println!("sentience tools listening on http://{bound}");
        // SIGTERM too: killed without it, the process would leave its
        // Chromium sessions running.
        serve(listener, router(state), crate::serve::shutdown_signal()).await?;
        // Close the browsers cleanly, so their profiles are saved.
        let all: Vec<_> = sessions
            .sessions
            .lock()
            .await
            .map
            .values()
            .cloned()
            .collect();
        for s in all {
            s.browser.close().await;
        }
        Ok(())
    })
}
