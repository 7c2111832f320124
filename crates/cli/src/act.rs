//! `sentience act --task "…"`: a complete agent on a tool server (docs/contracts/tools.md)
//! (docs/hands.md). Detects the browser behaviour from the task, then each
//! step: snapshot → plan (the built-in planner, or the LLM when
//! `LLM_API_KEY` is set) → route → coordinates from the chosen vision
//! provider (offline: the `dom` provider) → execute with retry and
//! self-healing → loop detection. Without `--tools` it starts its own
//! `sentience tools` on a free port, and without `--start-url` the bundled
//! demo site.

use crate::act_io::{ReqwestHttp, TokioClock};
use crate::act_step::{describe, to_action, StepStats};
use crate::demo_site;
use crate::serve::{policy, LlmArgs};
use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use sentience_agent::policy::{Baseline, Decision, PolicyContext};
use sentience_agent::text::success_markers;
use sentience_agent::{planner, HistoryEntry, Page, RunMode, Tool};
use sentience_hands::page::{fingerprint, snapshot_json};
use sentience_hands::{
    detect_browser_behavior, ActionRecord, Hands, LoopDetector, ToolClient, VisionSet,
};
use sentience_snapshot_core::contract::Snapshot;
use serde_json::json;
use std::io::{BufRead, BufReader, IsTerminal};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
pub struct ActArgs {
    /// What to do, e.g. 'Log in as "alice" with password "s3cret"'.
    #[arg(long)]
    pub task: String,
    /// A running tool server (`sentience tools`); default: start one.
    #[arg(long, env = "SENTIENCE_TOOLS_URL")]
    pub tools: Option<String>,
    #[arg(long, env = "SENTIENCE_TOOLS_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    #[arg(long, default_value = "browser", value_parser = ["browser", "desktop"])]
    pub scope: String,
    /// Page to start on (default: the bundled demo site, or with --tools
    /// the page the active session shows).
    #[arg(long)]
    pub start_url: Option<String>,
    #[arg(long, default_value_t = 30)]
    pub max_steps: u32,
    /// Print a JSON summary (steps, healed clicks, timings) on stdout at the end.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub llm: LlmArgs,
}

/// A `sentience tools` child process on a free port; killed on drop.
struct ToolsChild {
    child: Child,
    url: String,
    _profile: tempfile::TempDir,
}

impl Drop for ToolsChild {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn spawn_tools() -> Result<ToolsChild> {
    let exe = std::env::current_exe().context("finding the sentience binary")?;
    let profile = tempfile::tempdir()?;
    let mut child = Command::new(exe)
        .args(["tools", "--port", "0", "--profile-dir"])
        .arg(profile.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .context("starting `sentience tools`")?;
    let stdout = child
        .stdout
        .take()
        .context("no stdout from `sentience tools`")?;
    let mut lines = BufReader::new(stdout).lines();
    let url = loop {
        let Some(line) = lines.next() else {
            let _ = child.kill();
            bail!("`sentience tools` exited before listening");
        };
        let line = line?;
        if let Some(i) = line.find("http://") {
            break line[i..].trim().to_string();
        }
    };
    // Keep draining its stdout so it never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    Ok(ToolsChild {
        child,
        url,
        _profile: profile,
    })
}

type ActHands = Hands<ReqwestHttp, TokioClock>;

pub async fn run(args: ActArgs) -> Result<()> {
    let (tools_url, _child) = match &args.tools {
        Some(u) => (u.clone(), None),
        None => {
            let c = spawn_tools()?;
            (c.url.clone(), Some(c))
        }
    };
    let (start_url, _demo) = match &args.start_url {
        Some(u) => (Some(u.clone()), None),
        // The demo site only when nothing else is given: with --tools, the
        // page the operator's session is on is where the task starts.
        None if args.scope == "browser" && args.tools.is_none() => {
            let demo = demo_site::start().await?;
            (Some(format!("{}/index.html", demo.base_url)), Some(demo))
        }
        None => (None, None),
    };
    let tools = ToolClient::new(ReqwestHttp::new()?, &tools_url).with_token(args.token.clone());
    let mut hands = Hands::from_parts(tools, TokioClock::new());
    hands.vision = VisionSet::from_env(|k| std::env::var(k).ok()).map_err(anyhow::Error::msg)?;
    hands.scope = args.scope.clone();
    hands.start_url = start_url.clone();
    eprintln!(
        "sentience act: tools {tools_url}, scope {}, vision lux={} gemini={}",
        args.scope,
        name(&hands.vision.lux),
        name(&hands.vision.gemini)
    );
    if args.scope == "desktop" {
        return desktop_once(&hands, &args).await;
    }
    open_browser(&hands, &args.task, start_url.as_deref()).await?;
    let outcome = browser_loop(&hands, &args).await;
    // Our session: close it (a session we found already running is left alone).
    if args.tools.is_none() {
        let _ = hands.tools.post("/browser/stop", json!({})).await;
    }
    outcome
}

fn name(p: &sentience_hands::providers::Provider) -> &str {
    use sentience_hands::providers::VisionProvider;
    p.name()
}

/// docs/contracts/tools.md §17.4: a restart, a new tab, or the page already open.
async fn open_browser(hands: &ActHands, task: &str, start_url: Option<&str>) -> Result<()> {
    let behavior = detect_browser_behavior(task);
    let status = hands.tools.get("/browser/status").await;
    let alive = status["sessions"]
        .as_array()
        .is_some_and(|s| s.iter().any(|x| x["is_alive"] == json!(true)));
    if behavior.close_current || !alive {
        if behavior.close_current && alive {
            eprintln!("  task asks for a fresh browser: restarting");
            let _ = hands.tools.post("/browser/stop", json!({})).await;
        }
        let r = hands.tools.start_browser(start_url).await;
        if r["success"] != json!(true) {
            bail!(
                "could not start a browser: {}",
                r["error"].as_str().unwrap_or("unknown error")
            );
        }
    } else if behavior.new_tab {
        eprintln!("  task asks for a new tab");
        let mut body = json!({});
        if let Some(u) = start_url {
            body["url"] = json!(u);
        }
        hands.tools.post("/browser/tab/new", body).await;
    } else if let Some(u) = start_url {
        hands
            .tools
            .post("/browser/navigate", json!({ "url": u }))
            .await;
    }
    Ok(())
}

/// The snapshot the run loop takes before each step (extension/run/tools.js
/// `observe`): its 100 most important elements, once the DOM has been quiet
/// 120 ms (at most 1.5 s), so a page still reacting to the last action is
/// not planned on half built. An older tool server ignores the parameters
/// it does not know (`quiet_ms`, `timeout_ms`) and answers at once.
const SNAPSHOT_QUERY: &str = "/browser/snapshot?facts=true&limit=100&quiet_ms=120&timeout_ms=1500";

/// The page for the planner, and its fingerprint (page.rs `fingerprint`):
/// the snapshot with each element's DOM facts and the page's words
/// (`GET /browser/snapshot?facts=true`), the same page the run loop sends to
/// /step ([`SNAPSHOT_QUERY`]). A tool server without `facts` (an older one)
/// gives the snapshot alone; the page's words then come from its
/// accessibility tree.
async fn snapshot(hands: &ActHands) -> Result<(String, Page)> {
    let mut last = String::new();
    for attempt in 1..=3u64 {
        let v = hands.tools.get(SNAPSHOT_QUERY).await;
        // An error result (a page still loading) is asked again, like no answer.
        let read = snapshot_json(&v).map(|s| (s, Snapshot::from_value(s)));
        if let Some((s, Ok(snap))) = read {
            let fp = fingerprint(&snap);
            let mut s = s.clone();
            if s.get("visibleText").is_none() {
                // The page's words that are not elements ("Welcome, alice!")
                // tell the planner it is done; the docs/contracts/tools.md §14 accessibility
                // tree has them.
                let tree = hands.tools.get("/browser/dom/tree").await;
                let (title, text) = tree_text(tree["tree"].as_str().unwrap_or(""));
                s["visibleText"] = json!(text);
                s.as_object_mut()
                    .map(|o| o.entry("title").or_insert(json!(title)));
            }
            let page = Page::from_json(&s).map_err(anyhow::Error::msg)?;
            return Ok((fp, page));
        }
        last = match read {
            Some((_, Err(e))) => e,
            _ => v["error"].as_str().unwrap_or("no snapshot").to_string(),
        };
        tokio::time::sleep(Duration::from_millis(300 * attempt)).await;
    }
    bail!("no page snapshot from the tool server: {last}")
}

/// (title, visible text) from the `[role] "name"` lines of
/// `GET /browser/dom/tree`: the root's name, and every name in order.
pub fn tree_text(tree: &str) -> (String, String) {
    let mut names = tree.lines().filter_map(|l| {
        let start = l.find('"')?;
        let end = l.rfind('"')?;
        (end > start).then(|| l[start + 1..end].replace("\\\"", "\""))
    });
    let title = names.next().unwrap_or_default();
    let text: Vec<String> = names.collect();
    (title, text.join(" "))
}

async fn browser_loop(hands: &ActHands, args: &ActArgs) -> Result<()> {
    let policy = policy(&args.llm)?;
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(u64::from(args.max_steps))
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{spinner} step {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    let say = |line: String| {
        if bar.is_hidden() {
            eprintln!("{line}");
        } else {
            bar.println(line);
        }
    };
    let mut history: Vec<HistoryEntry> = Vec::new();
    let mut avoid: Vec<String> = Vec::new();
    let mut loops = LoopDetector::new(hands.config.clone());
    let mut baseline: Option<Baseline> = None;
    let mut stats = StepStats::default();
    for step in 1..=args.max_steps {
        bar.set_position(u64::from(step));
        let started = Instant::now();
        let (io0, slept0) = (hands.tools.http.io.get(), hands.clock.slept.get());
        let (fp, page) = snapshot(hands).await?;
        if let Some(last) = history.last_mut() {
            last.page_after = Some(page.signature());
            loops.set_last_page_after(fp.clone());
        }
        let baseline = baseline.get_or_insert_with(|| Baseline {
            url: page.url.clone(),
            markers: success_markers(&page.all_text()),
        });
        let ctx = PolicyContext {
            task: &args.task,
            mode: RunMode::Autonomous,
            page: &page,
            history: &history,
            reflections: &[],
            avoid: &avoid,
            baseline,
            step,
            user_answers: &[],
        };
        let planned = Instant::now();
        let decision = policy
            .decide(&ctx)
            .await
            .map_err(|e| anyhow::anyhow!("planner: {e}"))?;
        let planner = planned.elapsed();
        let tool = match decision {
            Decision::Finish(result) => {
                bar.finish_and_clear();
                stats.steps = step - 1;
                println!("✓ completed: {result}");
                return finish(args, &stats, true, &result);
            }
            Decision::Fail(why) => {
                bar.finish_and_clear();
                stats.steps = step - 1;
                finish(args, &stats, false, &why)?;
                bail!("the agent gave up: {why}");
            }
            Decision::Ask(q) => {
                bar.finish_and_clear();
                stats.steps = step - 1;
                finish(args, &stats, false, &q)?;
                bail!("the agent needs an answer it cannot get here: {q}");
            }
            Decision::Tool(t) => t,
        };
        let action = to_action(&tool, &page);
        bar.set_message(tool.name().as_str().to_string());
        if let Tool::Observe { wait_ms: Some(ms) } = tool {
            // A wait the task asked for, or for a page still changing.
            tokio::time::sleep(Duration::from_millis(ms.min(120_000))).await;
        }
        let result = match &tool {
            // A key for an element (a slider's handle): the element is
            // focused by a click first, then the key pressed `repeat` times.
            Tool::Press {
                id: Some(id),
                repeat,
                ..
            } => {
                // The click's own outcome does not count: a handle that
                // only takes the focus changes nothing on the page.
                let click = to_action(&Tool::Click { id: id.clone() }, &page);
                hands.execute_with_retry(&click).await;
                let mut r = json!({ "success": false });
                for _ in 0..repeat.unwrap_or(1) {
                    r = hands.execute_with_retry(&action).await;
                    if r["success"] != json!(true) {
                        break;
                    }
                }
                r
            }
            _ => hands.execute_with_retry(&action).await,
        };
        let ok = result["success"] == json!(true);
        say(format!("  [{step:>2}] {}", describe(&tool, &page, &result)));
        stats.record(&result);
        let observation = if ok {
            "done".to_string()
        } else {
            result["error"].as_str().unwrap_or("failed").to_string()
        };
        let mut entry = planner::entry(step, &tool, Some(&page), &observation);
        entry.success = Some(ok);
        history.push(entry);
        let point = &result["details"]["viewport_coords"];
        loops.add_action(ActionRecord {
            kind: tool.name().as_str().into(),
            x: point["x"].as_f64(),
            y: point["y"].as_f64(),
            selector: tool.element_id(),
            text: tool.text().map(str::to_string),
            page_before: Some(fp),
            page_after: None,
            timestamp: hands.clock_ms(),
        });
        if let Some(report) = loops.detect() {
            stats.loops += 1;
            say(format!(
                "       loop detected ({:?}); workarounds: {:?}",
                report.kind, report.workarounds
            ));
            // The machine-readable workaround we can apply: another target.
            if let Some(id) = tool.element_id() {
                avoid.push(id);
            }
            loops.clear();
        }
        let spent = started.elapsed();
        let waited = (hands.tools.http.io.get() - io0) + (hands.clock.slept.get() - slept0);
        stats
            .logic
            .push(spent.saturating_sub(waited).saturating_sub(planner));
        stats.planner.push(planner);
    }
    bar.finish_and_clear();
    stats.steps = args.max_steps;
    finish(args, &stats, false, "step limit reached")?;
    bail!("not done after {} steps", args.max_steps)
}

fn finish(args: &ActArgs, stats: &StepStats, success: bool, result: &str) -> Result<()> {
    if args.json {
        println!("{}", stats.summary(success, result));
    }
    Ok(())
}

/// Desktop scope: no DOM to plan over, so the task is one instruction for
/// the vision providers (Lux first, docs/contracts/tools.md §17.3 rule 1), clicked once.
async fn desktop_once(hands: &ActHands, args: &ActArgs) -> Result<()> {
    let action = sentience_hands::Action {
        kind: "click".into(),
        target: Some(args.task.clone()),
        ..Default::default()
    };
    let r = hands.execute_with_retry(&action).await;
    println!("{}", serde_json::to_string_pretty(&r)?);
    if r["success"] != json!(true) {
        bail!("{}", r["error"].as_str().unwrap_or("failed"));
    }
    Ok(())
}

trait ClockMs {
    fn clock_ms(&self) -> f64;
}

impl ClockMs for ActHands {
    fn clock_ms(&self) -> f64 {
        use sentience_hands::io::Clock;
        self.clock.now_ms()
    }
}

#[cfg(test)]
mod tests;
