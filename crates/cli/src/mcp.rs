//! `sentience mcp`: the MCP server of docs/mcp.md (crates/mcp) with its
//! real backends: a managed Chromium with the extension (`--browser
//! managed`, the default) or the user's own Chrome through the installed
//! extension (`--browser extension`), over stdio (default) or streamable
//! HTTP (`--http`, endpoint /mcp, behind the shared guard).

use crate::browser::find_extension_dir;
use crate::guard_args::GuardArgs;
use crate::serve::{default_data_dir, policy, LlmArgs};
use anyhow::{bail, Context, Result};
use sentience_mcp::backend::extension::link::Link;
use sentience_mcp::backend::extension::pairing::Pairing;
use sentience_mcp::backend::extension::{socket, ExtensionBackend};
use sentience_mcp::backend::managed::ManagedBackend;
use sentience_mcp::backend::Backend;
use sentience_mcp::{Config, Mode, Shared};
use sentience_tool_server::browser::cdp::ChromiumLauncher;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrowserKind {
    /// A Chromium of ours with the extension, started on first use.
    Managed,
    /// Your own Chrome, through the installed Sentience extension.
    Extension,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModeArg {
    Autonomous,
    Careful,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Which browser the tools drive.
    #[arg(long, value_enum, default_value = "managed")]
    browser: BrowserKind,
    /// careful: pay, delete, send, card and password entry ask the user
    /// first (MCP elicitation). Default: careful for --browser extension,
    /// autonomous for managed.
    #[arg(long, value_enum)]
    mode: Option<ModeArg>,
    /// Approve every action careful mode would ask about.
    #[arg(long)]
    yes: bool,
    /// Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio.
    #[arg(long)]
    http: bool,
    /// Port of --http (0 picks a free one and prints it).
    #[arg(long, env = "SENTIENCE_MCP_PORT", default_value_t = 8767)]
    port: u16,
    /// Address of --http. Anything but loopback requires --token.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// With --http: require `Authorization: Bearer <TOKEN>` on every request.
    #[arg(long, env = "SENTIENCE_MCP_TOKEN", hide_env_values = true)]
    token: Option<String>,
    #[command(flatten)]
    guard: GuardArgs,
    /// The managed browser's persistent profile (logins survive restarts);
    /// one browser per profile.
    #[arg(long)]
    profile_dir: Option<PathBuf>,
    /// Show the managed browser's window.
    #[arg(long)]
    headed: bool,
    /// The managed browser's executable.
    #[arg(
        long = "chromium",
        env = "SENTIENCE_BROWSER",
        default_value = "/usr/bin/chromium"
    )]
    chromium: PathBuf,
    /// The unpacked extension the managed browser loads (default: found
    /// from the current directory or the binary's location).
    #[arg(long)]
    extension: Option<PathBuf>,
    /// An extra command-line switch for the managed browser (repeatable),
    /// e.g. --browser-arg=--proxy-server=http://proxy:3128.
    #[arg(long = "browser-arg", allow_hyphen_values = true)]
    browser_args: Vec<String>,
    /// Loopback port the extension connects to (--browser extension).
    #[arg(long, default_value_t = 8777)]
    extension_port: u16,
    /// Where the pairing token is kept (default: the data directory).
    #[arg(long)]
    pairing_file: Option<PathBuf>,
    /// Print the pairing code to paste into the extension, and exit.
    #[arg(long)]
    pairing_code: bool,
    /// Make a new pairing token (the extension must pair again).
    #[arg(long)]
    new_pairing: bool,
    #[command(flatten)]
    llm: LlmArgs,
}

fn pairing(args: &Args) -> Result<Pairing> {
    let file = args
        .pairing_file
        .clone()
        .unwrap_or_else(|| default_data_dir().join("mcp-pairing"));
    Pairing::load_or_create(&file, args.new_pairing)
        .with_context(|| format!("reading or writing the pairing token {}", file.display()))
}

pub fn run(args: Args) -> Result<()> {
    if args.pairing_code {
        if args.browser != BrowserKind::Extension {
            bail!("--pairing-code is for --browser extension");
        }
        println!("{}", pairing(&args)?.code(args.extension_port));
        return Ok(());
    }
    // Logs go to stderr: over stdio, stdout is the protocol.
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "warn,sentience_mcp=info".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let guard_config = if args.http {
        let g = args
            .guard
            .config(args.host, args.token.clone().into_iter().collect())?;
        sentience_guard::check_bind(
            args.host,
            !g.keys.is_empty(),
            "the browser through MCP",
            "--token",
        )?;
        Some(g)
    } else {
        None
    };
    let mode = match (args.mode, args.browser) {
        (Some(ModeArg::Autonomous), _) | (None, BrowserKind::Managed) => Mode::Autonomous,
        (Some(ModeArg::Careful), _) | (None, BrowserKind::Extension) => {
            Mode::Careful { yes: args.yes }
        }
    };
    let policy = policy(&args.llm)?;
    tokio::runtime::Runtime::new()?.block_on(async move {
        let backend: Arc<dyn Backend> = match args.browser {
            BrowserKind::Managed => {
                let extension_dir = find_extension_dir(args.extension.as_deref())?;
                let profile = args
                    .profile_dir
                    .clone()
                    .unwrap_or_else(|| default_data_dir().join("mcp-profile"));
                Arc::new(ManagedBackend::new(
                    Arc::new(ChromiumLauncher {
                        executable: args.chromium.clone(),
                        extension_dir: Some(extension_dir),
                        // chromiumoxide adds the leading dashes itself.
                        extra_args: args
                            .browser_args
                            .iter()
                            .map(|a| a.trim_start_matches('-').to_string())
                            .collect(),
                    }),
                    profile,
                    !args.headed,
                ))
            }
            BrowserKind::Extension => {
                let pairing = pairing(&args)?;
                let listener = tokio::net::TcpListener::bind(("127.0.0.1", args.extension_port))
                    .await
                    .with_context(|| format!("binding the extension link on 127.0.0.1:{}", args.extension_port))?;
                let bound = listener.local_addr()?;
                let link = Arc::new(Link::default());
                let app = socket::router(link.clone(), pairing.clone(), socket::guard(bound));
                tokio::spawn(async move {
                    let _ = axum::serve(listener, app).await;
                });
                eprintln!(
                    "sentience mcp: waiting for the Sentience extension on {bound}. Pair it once: open the extension's side panel (its toolbar icon), Settings, \
                     \"Agent (MCP)\", paste the pairing code {}, and tick the tabs the agent may use.",
                    pairing.code(bound.port())
                );
                Arc::new(ExtensionBackend::new(link))
            }
        };
        let shared = Shared::new(backend.clone(), Config { mode, policy });
        let served = match guard_config {
            None => sentience_mcp::serve_stdio(shared).await.map_err(anyhow::Error::msg),
            Some(g) => serve_http(shared, g, args.host, args.port).await,
        };
        backend.shutdown().await;
        served
    })
}

async fn serve_http(
    shared: Arc<Shared>,
    config: sentience_guard::GuardConfig,
    host: IpAddr,
    port: u16,
) -> Result<()> {
    let listener = tokio::net::TcpListener::bind(SocketAddr::new(host, port))
        .await
        .with_context(|| format!("binding {host}:{port}"))?;
    let bound = listener.local_addr()?;
    let guard = sentience_mcp::http::guard(config);
    guard.listening_on(bound);
    println!(
        "sentience mcp listening on http://{bound}{}",
        sentience_mcp::http::ENDPOINT
    );
    sentience_mcp::http::serve(listener, shared, guard, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await?;
    Ok(())
}
