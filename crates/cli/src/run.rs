//! `sentience run --task "…"`: the whole product end to end. Launches
//! Chromium with the extension, starts the agent server in-process on a free
//! port (or uses `--server`), and has the extension's service worker drive
//! the run, exactly as when a person starts it from the popup: this command
//! talks to the worker through an extension page with the popup's own
//! messages (`run-start`, `run-answer`, `run-cancel`) and reads the run's
//! progress from `chrome.storage`, where the worker keeps it.

use crate::browser::{find_extension_dir, ExtensionBrowser};
use crate::serve::LlmArgs;
use crate::startup;
use anyhow::{bail, Context, Result};
use chromiumoxide::Page;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// What the agent should do, e.g. 'Log in as "alice" with password "s3cret"'.
    #[arg(long)]
    pub task: String,
    /// Page to start on (default: the bundled demo store).
    #[arg(long)]
    pub url: Option<String>,
    /// `careful` asks before paying, deleting, sending or entering secrets.
    #[arg(long, default_value = "autonomous", value_parser = ["autonomous", "careful"])]
    pub mode: String,
    /// Use a running agent server instead of starting one in-process.
    #[arg(long)]
    pub server: Option<String>,
    /// Answer every security question with yes (default: ask on the
    /// terminal; refuse when there is no terminal).
    #[arg(long)]
    pub yes: bool,
    /// Show the browser window instead of running headless.
    #[arg(long)]
    pub headed: bool,
    /// Give up after this many seconds.
    #[arg(long, default_value_t = 600)]
    pub timeout_secs: u64,
    #[arg(long)]
    pub extension: Option<PathBuf>,
    #[arg(long, env = "CHROMIUM", default_value = "/usr/bin/chromium")]
    pub chromium: PathBuf,
    #[command(flatten)]
    pub llm: LlmArgs,
}

/// Evaluates `expr` in the extension page and returns its JSON value.
async fn ext_eval(page: &Page, expr: String) -> Result<Value> {
    ExtensionBrowser::eval(page, &expr).await
}

fn describe(entry: &Value) -> String {
    let kind = entry["kind"].as_str().unwrap_or("");
    let text = entry["text"].as_str().unwrap_or("");
    match kind {
        "tool" => {
            let tool = entry["tool"].as_str().unwrap_or("?");
            let p = &entry["params"];
            let target = entry["target"]
                .as_str()
                .map(|t| format!(" \"{t}\""))
                .or_else(|| p["url"].as_str().map(|u| format!(" {u}")))
                .or_else(|| p["key"].as_str().map(|k| format!(" {k}")))
                .unwrap_or_default();
            let typed = p["text"]
                .as_str()
                .filter(|_| tool == "type")
                .map(|t| format!(" ← \"{t}\""))
                .unwrap_or_default();
            let result = match entry.get("result") {
                Some(r) if r["success"] == json!(true) => " ✓".to_string(),
                Some(r) => format!(" ✗ {}", r["error"].as_str().unwrap_or("")),
                None => String::new(),
            };
            format!("{tool}{target}{typed}{result}")
        }
        "ask" => format!("asks: {text}"),
        "answer" => format!("you {text}"),
        "finish" => format!("finished: {text}"),
        _ => format!("{kind}: {text}"),
    }
}

/// Answers the agent's question: (approved, free-text answer). Security
/// checks are yes/no (`--yes` approves them); other questions want words, so
/// without a terminal they are refused, which cancels the run cleanly.
fn ask_terminal(question: &str, yes: bool, bar: &ProgressBar) -> (bool, Option<String>) {
    let security = question.contains("Security check");
    // Printed through the bar, which would otherwise redraw over the line.
    if security && yes {
        bar.suspend(|| eprintln!("? {question} → yes (--yes)"));
        return (true, None);
    }
    if !std::io::stdin().is_terminal() {
        let hint = if security {
            "; pass --yes to approve"
        } else {
            ""
        };
        bar.suspend(|| eprintln!("? {question} → refused (no terminal to ask{hint})"));
        return (false, None);
    }
    bar.suspend(|| {
        if security {
            print!("? {question} [y/N] ");
        } else {
            print!("? {question}\n  your answer (empty to stop the run): ");
        }
        let _ = std::io::stdout().flush();
        let mut line = String::new();
        let _ = std::io::stdin().lock().read_line(&mut line);
        let line = line.trim().to_string();
        if security {
            (
                matches!(line.to_ascii_lowercase().as_str(), "y" | "yes"),
                None,
            )
        } else if line.is_empty() {
            (false, None)
        } else {
            (true, Some(line))
        }
    })
}

pub async fn run(args: RunArgs) -> Result<()> {
    // A missing extension fails before anything starts.
    find_extension_dir(args.extension.as_deref())?;
    let server = startup::agent_server(args.server.as_deref(), &args.llm).await?;
    let start = startup::start_page(args.url.as_deref()).await?;
    let (server_url, start_url) = (&server.url, &start.url);
    let policy_name = if args.llm.has_key() {
        "LLM"
    } else {
        "built-in System 2 scorer"
    };
    eprintln!("sentience: {policy_name} via {server_url}; starting at {start_url}");
    let browser =
        startup::extension_browser(args.extension.as_deref(), &args.chromium, args.headed).await?;
    let outcome = drive(&browser, &args, server_url, start_url).await;
    browser.close().await;
    outcome
}

async fn drive(
    browser: &ExtensionBrowser,
    args: &RunArgs,
    server: &str,
    start: &str,
) -> Result<()> {
    let target = browser.open(start).await?;
    let ext_id = browser.extension_id().await?;
    let control = browser
        .open_extension_page(&format!(
            "chrome-extension://{ext_id}/extension/options/options.html"
        ))
        .await?;
    ext_eval(
        &control,
        format!(
            "chrome.storage.local.set({{settings: {{serverUrl: {}, apiKey: '', defaultMode: 'autonomous'}}}}).then(() => true)",
            json!(server)
        ),
    )
    .await?;
    let target_url = target
        .url()
        .await
        .ok()
        .flatten()
        .unwrap_or_else(|| start.to_string());
    let tab_id = ext_eval(
        &control,
        format!("chrome.tabs.query({{}}).then((tabs) => (tabs.find((t) => t.url === {}) || {{}}).id ?? null)", json!(target_url)),
    )
    .await?;
    let tab_id = tab_id.as_i64().context("cannot find the page's tab")?;
    let started = ext_eval(
        &control,
        format!(
            "chrome.runtime.sendMessage({})",
            json!({"type": "run-start", "task": args.task, "mode": args.mode, "tabId": tab_id})
        ),
    )
    .await?;
    if let Some(e) = started["error"].as_str() {
        bail!("the run did not start: {e}");
    }
    let run_id = started["runId"].as_str().context("no run id")?.to_string();

    // A live progress line on a terminal; plain lines otherwise (CI, pipes),
    // where a hidden bar would swallow them.
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(150)
    } else {
        ProgressBar::hidden()
    };
    let say = |bar: &ProgressBar, line: String| {
        if bar.is_hidden() {
            eprintln!("{line}");
        } else {
            bar.println(line);
        }
    };
    bar.set_style(
        ProgressStyle::with_template("{spinner} step {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(Duration::from_millis(120));
    let deadline = Instant::now() + Duration::from_secs(args.timeout_secs);
    let mut printed = 0usize;
    let mut answered_asks = 0usize;
    loop {
        if Instant::now() > deadline {
            let _ = ext_eval(
                &control,
                format!(
                    "chrome.runtime.sendMessage({})",
                    json!({"type": "run-cancel", "runId": run_id})
                ),
            )
            .await;
            bar.finish_and_clear();
            bail!("timed out after {} s", args.timeout_secs);
        }
        let key = format!("run:{run_id}");
        let got = ext_eval(
            &control,
            format!(
                "chrome.storage.local.get({}).then((r) => r[{}] ?? null)",
                json!(key),
                json!(key)
            ),
        )
        .await?;
        if got.is_null() {
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        }
        let log = got["log"].as_array().cloned().unwrap_or_default();
        for entry in log.iter().skip(printed) {
            // A tool line is printed once its result is known.
            if entry["kind"] == "tool" && entry.get("result").is_none() {
                break;
            }
            say(
                &bar,
                format!(
                    "  [{:>3}] {}",
                    entry["step"].as_u64().unwrap_or(0),
                    describe(entry)
                ),
            );
            printed += 1;
        }
        bar.set_length(got["maxSteps"].as_u64().unwrap_or(150));
        bar.set_position(got["currentStep"].as_u64().unwrap_or(0));
        bar.set_message(got["status"].as_str().unwrap_or("").to_string());
        match got["status"].as_str() {
            Some("completed") => {
                bar.finish_and_clear();
                println!("✓ completed: {}", got["result"].as_str().unwrap_or(""));
                return Ok(());
            }
            Some("error") => {
                bar.finish_and_clear();
                bail!(
                    "the run failed: {}",
                    got["error"].as_str().unwrap_or("unknown error")
                );
            }
            Some("cancelled") => {
                bar.finish_and_clear();
                bail!("the run was cancelled");
            }
            Some("waiting_user") => {
                // Each question (an "ask" entry in the log) is answered once.
                let asks = log.iter().filter(|e| e["kind"] == "ask").count();
                if asks > answered_asks {
                    let question = got["question"].as_str().unwrap_or("Proceed?");
                    let (approved, answer) = ask_terminal(question, args.yes, &bar);
                    let mut msg =
                        json!({"type": "run-answer", "runId": run_id, "approved": approved});
                    if let Some(a) = answer {
                        msg["answer"] = json!(a);
                    }
                    let res =
                        ext_eval(&control, format!("chrome.runtime.sendMessage({msg})")).await?;
                    if let Some(e) = res["error"].as_str() {
                        say(&bar, format!("  (answer not taken: {e})"));
                    }
                    answered_asks = asks;
                }
            }
            _ => {}
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}
