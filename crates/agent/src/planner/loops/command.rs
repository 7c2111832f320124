//! A command box (a console, a terminal, a shell in the page): a line is
//! typed and Enter runs it; there is no button. The task names the box by
//! its kind ("in the console", "in the terminal") and the command (quoted,
//! after "the command", or after the verb); the box is the page's text
//! box whose prompt ends as shells' do ("$", ">", "#", "%"), else its
//! only one. When the task asks for something back ("tell me", "read",
//! "what …"), the answer is what the command printed: the lines after the
//! last line that echoes it.

use super::{task_words, text_box};
use crate::planner::context::Cx;
use crate::planner::layout::normalize;
use crate::policy::Decision;
use crate::types::Tool;
use sentience_snapshot_core::Observed;

/// Nouns that name a command box.
const BOXES: &[&str] = &["console", "terminal", "shell", "cli", "command", "prompt"];
/// Verbs that put a command in it.
const RUN: &[&str] = &["run", "execute", "type", "enter", "issue", "input"];
/// Words after the command that end it ("version in the console").
const ENDS: &[&str] = &["in", "into", "on", "at", "and", "then", "from", "inside"];
/// Words that ask for what the command printed.
const ASKS: &[&str] = &[
    "tell", "read", "say", "what", "which", "report", "show", "give", "how",
];
/// The last characters of a shell's prompt.
const PROMPTS: &[char] = &['$', '>', '#', '%'];
/// Lines of output read at most.
const OUTPUT_LINES: usize = 6;

pub fn decide(cx: &Cx<'_>) -> Option<Decision> {
    let words = task_words(cx.task);
    if !words.iter().any(|w| BOXES.contains(&w.as_str())) {
        return None;
    }
    let command = command(cx.task)?;
    let field = the_box(cx)?;
    let id = cx.id(field);
    let typed = cx.history.iter().rposition(|h| {
        h.action == "type"
            && cx.on(h, field)
            && h.param_str("text").is_some_and(|t| t.trim() == command)
    });
    let Some(at) = typed else {
        return Some(Decision::Tool(Tool::Type { id, text: command }));
    };
    if !cx.history[at + 1..].iter().any(|h| h.action == "press") {
        return Some(Decision::Tool(Tool::Press {
            key: "Enter".into(),
            id: Some(id),
            repeat: None,
        }));
    }
    let asks = words.iter().any(|w| ASKS.contains(&w.as_str())) || cx.task.contains('?');
    if !asks {
        return Some(Decision::Finish(format!("Done: ran \"{command}\"")));
    }
    Some(match output(cx, &command) {
        Some(out) => Decision::Finish(out),
        None => Decision::Ask(format!(
            "I ran \"{command}\" but cannot find what it printed. What should I look for?"
        )),
    })
}

/// The command: the task's quoted words, else the word after "command",
/// else the words after a verb of running up to "in the console" / "and".
fn command(task: &str) -> Option<String> {
    if let Some(q) = quoted(task) {
        return Some(q);
    }
    let raw: Vec<&str> = task.split_whitespace().collect();
    let low: Vec<String> = raw
        .iter()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    let start = low
        .iter()
        .position(|w| w == "command" || RUN.contains(&w.as_str()))?;
    let mut out: Vec<&str> = Vec::new();
    for (k, w) in raw.iter().enumerate().skip(start + 1) {
        let l = low[k].as_str();
        // "the version command": the noun names the kind, not the command.
        if (ENDS.contains(&l) || BOXES.contains(&l)) && !out.is_empty() {
            break;
        }
        if out.is_empty() && matches!(l, "the" | "a" | "command" | "in") {
            continue;
        }
        let clean = w.trim_end_matches([',', '.', ';', '?', '!']);
        out.push(clean);
        if clean.len() != w.len() {
            break;
        }
    }
    (!out.is_empty()).then(|| out.join(" "))
}

fn quoted(task: &str) -> Option<String> {
    for (open, close) in [('"', '"'), ('“', '”'), ('`', '`'), ('\'', '\'')] {
        if let Some(a) = task.find(open) {
            let rest = &task[a + open.len_utf8()..];
            if let Some(b) = rest.find(close) {
                let q = rest[..b].trim();
                if !q.is_empty() {
                    return Some(q.to_string());
                }
            }
        }
    }
    None
}

/// The box whose prompt (its name, or the words just before it) ends as a
/// shell's does, else the page's one text box.
fn the_box<'a>(cx: &Cx<'a>) -> Option<&'a Observed> {
    let boxes: Vec<&Observed> = cx.page.elements.iter().filter(|e| text_box(e)).collect();
    let prompted = |e: &&Observed| e.text().trim_end().ends_with(PROMPTS);
    // A page's lone search or message box is no console unless the task
    // says it is one by a noun only consoles have.
    let named = task_words(cx.task)
        .iter()
        .any(|w| matches!(w.as_str(), "console" | "terminal" | "shell" | "cli"));
    match boxes
        .iter()
        .copied()
        .filter(prompted)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [one] => Some(one),
        _ => match boxes.as_slice() {
            [one] if named => Some(one),
            _ => None,
        },
    }
}

/// What the command printed: the lines after the last one that ends with
/// it (the prompt echoing it), up to the next prompt.
fn output(cx: &Cx<'_>, command: &str) -> Option<String> {
    let all = cx.page.lines();
    let cmd = normalize(command);
    let echo = all.iter().rposition(|l| {
        let n = normalize(l);
        n == cmd || n.ends_with(&format!(" {cmd}"))
    })?;
    let out: Vec<&str> = all[echo + 1..]
        .iter()
        .take_while(|l| !l.trim_end().ends_with(PROMPTS))
        .take(OUTPUT_LINES)
        .copied()
        .collect();
    (!out.is_empty()).then(|| out.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn the_command_is_quoted_or_follows_its_verb() {
        assert_eq!(
            command("Run \"df -h\" in the console").as_deref(),
            Some("df -h")
        );
        assert_eq!(
            command("Type uptime in the terminal, press Enter").as_deref(),
            Some("uptime")
        );
        assert_eq!(
            command("Please execute the command status and tell me").as_deref(),
            Some("status")
        );
        assert_eq!(
            command("Could you run the uptime command in the console?").as_deref(),
            Some("uptime")
        );
    }
}
