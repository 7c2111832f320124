//! `sentience run --task "…"`: the whole product end to end. Launches
//! Chromium with the extension, starts the agent server in-process on a free
//! port (or uses `--server`), and has the extension's service worker drive
//! the run, exactly as when a person starts it from the side panel: this
//! command talks to the worker through an extension page with the side
//! panel's own messages (`run-start`, `run-answer`, `run-cancel`). It prints
//! the run from the server's live stream of it (`run_stream.rs`); the
//! worker's own record in `chrome.storage` only tells it when the extension
//! gave up on a run the server still thinks is going.

use crate::browser::{find_extension_dir, ExtensionBrowser};
use crate::run_poll;
use crate::run_stream;
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
    bar.set_style(
        ProgressStyle::with_template("{spinner} step {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(Duration::from_millis(120));
    let d = Drive {
        control: &control,
        run_id,
        bar,
        yes: args.yes,
        deadline: Instant::now() + Duration::from_secs(args.timeout_secs),
        timeout_secs: args.timeout_secs,
    };
    let outcome = match follow_stream(&d, server).await {
        Ok(StreamOutcome::Ended) => Ok(()),
        Ok(StreamOutcome::Lost {
            reason,
            last_step,
            questions,
        }) => {
            // An older server (no stream route), or a proxy that does not
            // pass WebSockets: the extension's own record of the run still
            // says everything, a quarter second late.
            d.say(format!(
                "  (the run's stream is unavailable: {reason}; following the extension's record instead)"
            ));
            run_poll::follow(&d, last_step, questions).await
        }
        Err(e) => Err(e),
    };
    d.bar.finish_and_clear();
    outcome
}

/// What both ways of following a run share: the extension page that
/// controls it, the progress line, the deadline.
pub(crate) struct Drive<'a> {
    control: &'a Page,
    pub run_id: String,
    pub bar: ProgressBar,
    yes: bool,
    deadline: Instant,
    timeout_secs: u64,
}

impl Drive<'_> {
    pub fn say(&self, line: String) {
        if self.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
    }

    /// Past the deadline, cancels the run and fails.
    pub async fn check_deadline(&self) -> Result<()> {
        if Instant::now() <= self.deadline {
            return Ok(());
        }
        let cancel = json!({"type": "run-cancel", "runId": self.run_id});
        let _ = ext_eval(
            self.control,
            format!("chrome.runtime.sendMessage({cancel})"),
        )
        .await;
        bail!("timed out after {} s", self.timeout_secs);
    }

    /// Asks the person (or `--yes`) and hands the answer to the extension,
    /// which sends it to the server as the side panel would.
    pub async fn answer(&self, question: &str) -> Result<()> {
        let (approved, answer) = ask_terminal(question, self.yes, &self.bar);
        // The stream shows the question as soon as the server committed it,
        // which can be before the extension has read the step's answer; the
        // extension takes an answer only once it waits for one.
        loop {
            let got = self.extension_record().await?;
            match got["status"].as_str() {
                Some("waiting_user") => break,
                Some("completed" | "error" | "cancelled") => return Ok(()),
                _ => {}
            }
            self.check_deadline().await?;
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let mut msg = json!({"type": "run-answer", "runId": self.run_id, "approved": approved});
        if let Some(a) = answer {
            msg["answer"] = json!(a);
        }
        let res = ext_eval(self.control, format!("chrome.runtime.sendMessage({msg})")).await?;
        if let Some(e) = res["error"].as_str() {
            self.say(format!("  (answer not taken: {e})"));
        }
        Ok(())
    }

    /// The extension's record of the run (`chrome.storage`), or null before
    /// it wrote one.
    pub async fn extension_record(&self) -> Result<Value> {
        let key = json!(format!("run:{}", self.run_id));
        ext_eval(
            self.control,
            format!("chrome.storage.local.get({key}).then((r) => r[{key}] ?? null)"),
        )
        .await
    }
}

enum StreamOutcome {
    /// The run completed (and was printed).
    Ended,
    /// The stream could not be had or kept; `last_step` and `questions`
    /// say how far it got.
    Lost {
        reason: String,
        last_step: Option<u64>,
        questions: usize,
    },
}

/// Prints the run from the server's stream and answers its questions,
/// until it ends (a failed or cancelled run is an error) or the stream is
/// lost.
async fn follow_stream(d: &Drive<'_>, server: &str) -> Result<StreamOutcome> {
    let mut events = run_stream::follow(server, &d.run_id);
    let mut printer = run_stream::Printer::default();
    let mut questions = 0usize;
    let mut check = tokio::time::interval(Duration::from_millis(500));
    // When the extension recorded an end the stream has not shown yet.
    let mut extension_ended: Option<(Instant, Value)> = None;
    loop {
        tokio::select! {
            ev = events.recv() => {
                let ev = match ev {
                    Some(Ok(ev)) => ev,
                    lost => {
                        let reason = match lost {
                            Some(Err(e)) => e,
                            _ => "it closed before the run ended".to_string(),
                        };
                        return Ok(StreamOutcome::Lost { reason, last_step: printer.last_step, questions });
                    }
                };
                for line in printer.lines(&ev) {
                    d.say(line);
                }
                d.bar.set_position(ev["step"].as_u64().unwrap_or(0));
                d.bar.set_message(ev["status"].as_str().unwrap_or("").to_string());
                match run_stream::ended(&ev) {
                    Some("completed") => {
                        d.bar.finish_and_clear();
                        println!("✓ completed: {}", printer.result.as_deref().unwrap_or(""));
                        return Ok(StreamOutcome::Ended);
                    }
                    Some("error") => {
                        bail!("the run failed: {}", printer.error.as_deref().unwrap_or("unknown error"));
                    }
                    Some(_) => bail!("the run was cancelled"),
                    None => {}
                }
                if ev["type"] == "question_asked" {
                    questions += 1;
                    d.answer(ev["question"].as_str().unwrap_or("Proceed?")).await?;
                }
            }
            _ = check.tick() => {
                d.check_deadline().await?;
                if let Some((at, got)) = &extension_ended {
                    // The server's stream had two seconds to show the end.
                    if at.elapsed() > Duration::from_secs(2) {
                        bail!(
                            "the extension stopped the run: {}",
                            got["error"].as_str().unwrap_or(got["status"].as_str().unwrap_or("?"))
                        );
                    }
                    continue;
                }
                let got = d.extension_record().await?;
                if matches!(got["status"].as_str(), Some("completed" | "error" | "cancelled")) {
                    extension_ended = Some((Instant::now(), got));
                }
            }
        }
    }
}
