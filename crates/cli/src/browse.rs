//! `sentience browse --task "…"`: the client of the HTML browse protocol
//! (docs/browse.md; the contract is docs/contracts/browse.md). Opens the page in Chromium,
//! sends `task` with its HTML, does each `goto` / `click` / `type` the
//! server answers, sends `state` with the new HTML, and stops on `finish`.
//! Without `--server` it starts the agent server in-process (as `sentience
//! run` does); with it, it talks to any server that speaks docs/contracts/browse.md and
//! reports where that server breaks the contract.

use crate::browse_page::BrowsePage;
use crate::browse_transport::Transport;
use crate::browse_wire::{describe, parse_answer, state_request, task_request, Action, Answer};
use crate::serve::LlmArgs;
use crate::startup;
use anyhow::{bail, Context, Result};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
pub struct BrowseArgs {
    /// What to do, e.g. 'Log in as "alice" with password "s3cret"'.
    #[arg(long)]
    pub task: String,
    /// Page to start on (default: the bundled demo store).
    #[arg(long)]
    pub url: Option<String>,
    /// A browse server (base URL, e.g. http://127.0.0.1:3131, or its full
    /// /browse URL). Default: start the agent server in this process.
    #[arg(long)]
    pub server: Option<String>,
    /// Key of a server started with `sentience serve --api-key` (sent as
    /// `Authorization: Bearer KEY`, on the WebSocket's handshake too).
    #[arg(long, env = "SENTIENCE_API_KEY", hide_env_values = true)]
    pub server_key: Option<String>,
    /// Talk over one WebSocket (GET /browse) instead of one HTTP POST per message.
    #[arg(long)]
    pub ws: bool,
    /// Show the browser window instead of running headless.
    #[arg(long)]
    pub headed: bool,
    /// Stop (and fail) after this many actions without `finish`.
    #[arg(long, default_value_t = 20)]
    pub max_steps: u32,
    /// Send only the keys docs/contracts/browse.md defines (no `url` of the
    /// page, no `accepts`: the server answers only goto, click, type, finish).
    #[arg(long)]
    pub no_url: bool,
    /// How long to wait for each answer of the server.
    #[arg(long, default_value_t = 120)]
    pub answer_timeout_secs: u64,
    #[arg(long, env = "CHROMIUM", default_value = "/usr/bin/chromium")]
    pub chromium: PathBuf,
    #[command(flatten)]
    pub llm: LlmArgs,
}

pub async fn run(args: BrowseArgs) -> Result<()> {
    if args.task.trim().is_empty() {
        bail!("--task is empty: say what to do, e.g. --task 'Search for \"rake\"'");
    }
    if args.max_steps == 0 {
        bail!("--max-steps must be at least 1");
    }
    let server = startup::agent_server(args.server.as_deref(), &args.llm).await?;
    let start = startup::start_page(args.url.as_deref()).await?;
    let (server_url, start_url) = (server.url.clone(), start.url.clone());
    let timeout = Duration::from_secs(args.answer_timeout_secs.max(1));
    // The in-process server has no key; only a server named by --server may want one.
    let key = args
        .server
        .as_ref()
        .and(args.server_key.as_deref())
        .filter(|k| !k.is_empty());
    let mut transport = if args.ws {
        Transport::ws(&server_url, key).await?
    } else {
        Transport::http(&server_url, timeout, key)?
    };
    let who = match (&args.server, args.llm.has_key()) {
        (Some(_), _) => "server".to_string(),
        (None, true) => "in-process server, LLM policy".to_string(),
        (None, false) => "in-process server, built-in policy".to_string(),
    };
    eprintln!(
        "sentience browse: {who} via {}; starting at {start_url}",
        transport.describe()
    );
    let page = BrowsePage::launch(&args.chromium, args.headed, &start_url).await?;
    let outcome = converse(&page, &mut transport, &args, timeout).await;
    transport.close().await;
    page.close().await;
    let reason = outcome?;
    println!("✓ finished: {reason}");
    Ok(())
}

/// Sends one request and reads the answer, within the answer timeout.
async fn ask(
    transport: &mut Transport,
    request: serde_json::Value,
    timeout: Duration,
) -> Result<Answer> {
    let raw = tokio::time::timeout(timeout, transport.send(&request))
        .await
        .map_err(|_| {
            anyhow::anyhow!("no answer from the server within {} s", timeout.as_secs())
        })??;
    let answer = parse_answer(raw.status, &raw.body)?;
    if !answer.extra_keys.is_empty() {
        eprintln!(
            "        (the answer also has keys docs/contracts/browse.md does not define: {}; ignored)",
            answer.extra_keys.join(", ")
        );
    }
    Ok(answer)
}

/// The conversation; returns the `finish` reason.
async fn converse(
    page: &BrowsePage,
    transport: &mut Transport,
    args: &BrowseArgs,
    timeout: Duration,
) -> Result<String> {
    let url = |u: String| (!args.no_url).then_some(u);
    let html = page.html().await?;
    let here = url(page.url().await);
    let mut answer = ask(
        transport,
        task_request(&html, &args.task, here.as_deref()),
        timeout,
    )
    .await
    .context("sending the task")?;
    // Answers carried out (progress lines), and those that acted on the page.
    let (mut step, mut acted) = (0u32, 0u32);
    loop {
        let started = Instant::now();
        eprintln!("  [{:>2}] {}", step + 1, answer.reason);
        if answer.action == Action::Finish {
            eprintln!("       → finish");
            return Ok(answer.reason);
        }
        let is_wait = matches!(answer.action, Action::Wait { .. });
        if acted >= args.max_steps && !is_wait {
            bail!(
                "gave up after {} actions without `finish` (raise --max-steps); the server's next action was: {}",
                args.max_steps,
                describe(&answer.action)
            );
        }
        // A wait is not an action on the page: it does not use up
        // --max-steps (the server ends a conversation after 100 answers).
        if !is_wait {
            acted += 1;
        }
        step += 1;
        let note = page
            .perform(&answer.action)
            .await
            .with_context(|| format!("step {step}: {}", describe(&answer.action)))?;
        let note = if note.is_empty() {
            String::new()
        } else {
            format!(" ({note})")
        };
        eprintln!(
            "       → {}{note} ✓ {:.1} s, now at {}",
            describe(&answer.action),
            started.elapsed().as_secs_f64(),
            page.url().await
        );
        let html = page.html().await?;
        let here = url(page.url().await);
        answer = ask(transport, state_request(&html, here.as_deref()), timeout)
            .await
            .with_context(|| format!("sending the state after step {step}"))?;
    }
}
