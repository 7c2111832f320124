//! The fallback of `sentience run` when the server's run stream cannot be
//! had (a server from before the stream, a proxy that does not pass
//! WebSockets): the run is followed in the extension's own record of it
//! (`chrome.storage`, `run:<id>`, which the service worker keeps), read
//! every quarter second, and printed in the same lines.

use crate::run::Drive;
use crate::run_stream::{numbered, tool_text};
use anyhow::{bail, Result};
use serde_json::Value;
use std::time::Duration;

/// One entry of the extension's log, as a line.
fn describe(entry: &Value) -> String {
    let kind = entry["kind"].as_str().unwrap_or("");
    let text = entry["text"].as_str().unwrap_or("");
    match kind {
        "tool" => tool_text(
            entry["tool"].as_str().unwrap_or("?"),
            &entry["params"],
            entry["target"].as_str(),
            entry.get("result"),
        ),
        "ask" => format!("asks: {text}"),
        "answer" => format!("you {text}"),
        "finish" => format!("finished: {text}"),
        _ => format!("{kind}: {text}"),
    }
}

/// Follows the run to its end. `after_step`: the stream already printed
/// the lines up to that step; `questions`: it already answered that many.
pub async fn follow(d: &Drive<'_>, after_step: Option<u64>, questions: usize) -> Result<()> {
    let mut printed = 0usize;
    let mut answered_asks = questions;
    loop {
        d.check_deadline().await?;
        let got = d.extension_record().await?;
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
            let step = entry["step"].as_u64().unwrap_or(0);
            if after_step.is_none_or(|s| step > s) {
                d.say(numbered(step, &describe(entry)));
            }
            printed += 1;
        }
        d.bar.set_length(got["maxSteps"].as_u64().unwrap_or(150));
        d.bar.set_position(got["currentStep"].as_u64().unwrap_or(0));
        d.bar
            .set_message(got["status"].as_str().unwrap_or("").to_string());
        match got["status"].as_str() {
            Some("completed") => {
                d.bar.finish_and_clear();
                println!("✓ completed: {}", got["result"].as_str().unwrap_or(""));
                return Ok(());
            }
            Some("error") => bail!(
                "the run failed: {}",
                got["error"].as_str().unwrap_or("unknown error")
            ),
            Some("cancelled") => bail!("the run was cancelled"),
            Some("waiting_user") => {
                // Each question (an "ask" entry in the log) is answered once.
                let asks = log.iter().filter(|e| e["kind"] == "ask").count();
                if asks > answered_asks {
                    d.answer(got["question"].as_str().unwrap_or("Proceed?"))
                        .await?;
                    answered_asks = asks;
                }
            }
            _ => {}
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}
