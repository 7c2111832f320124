//! Stream delivery measured from the commit (`sentience bench-server
//! --commit-trace`): issue 24 defines delivery as "event committed → client
//! received", but an event's `at` is stamped when its turn numbers it,
//! before the run is serialised and committed, so the delivery the bench
//! measures from `at` includes the commit. With `--commit-trace` the
//! servers trace each turn's commit instant (target
//! `sentience_server::commits`: run, first and last sequence number, wall
//! clock in µs, taken when the commit has answered); their stderr is read
//! here, and each event a client received is joined with the commit that
//! wrote it (run id and sequence number). The protocol is unchanged.

use std::collections::HashMap;
use std::io::BufRead;
use std::sync::{Arc, Mutex};

/// One turn's commit as a server traced it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Commit {
    pub(crate) run: String,
    pub(crate) first_seq: i64,
    pub(crate) last_seq: i64,
    /// Wall clock, µs since the Unix epoch.
    pub(crate) committed_us: u64,
}

/// One live event as a client received it (replays are not delivery).
#[derive(Debug, Clone)]
pub(crate) struct Received {
    pub(crate) run: Arc<str>,
    pub(crate) seq: i64,
    /// Wall clock, ms since the Unix epoch (sub-ms precision).
    pub(crate) at_ms: f64,
}

/// The servers' commits, collected while they run.
pub(crate) type Commits = Arc<Mutex<Vec<Commit>>>;

/// Removes terminal colour sequences (`ESC [ … m`): the server's log
/// formatter colours field names even when writing to a pipe.
fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A commit line of the server's trace (`… turn committed run=… first_seq=…
/// last_seq=… committed_us=…`), or `None` for any other line.
pub(crate) fn parse_line(line: &str) -> Option<Commit> {
    let line = strip_ansi(line);
    let (_, fields) = line.split_once("turn committed")?;
    let (mut run, mut first, mut last, mut us) = (None, None, None, None);
    for kv in fields.split_whitespace() {
        let Some((k, v)) = kv.split_once('=') else {
            continue;
        };
        match k {
            "run" => run = Some(v.to_string()),
            "first_seq" => first = v.parse().ok(),
            "last_seq" => last = v.parse().ok(),
            "committed_us" => us = v.parse().ok(),
            _ => {}
        }
    }
    Some(Commit {
        run: run?,
        first_seq: first?,
        last_seq: last?,
        committed_us: us?,
    })
}

/// Reads a server's stderr on a thread of its own: commit lines go to
/// `into`, every other line to this process's stderr as before.
pub(crate) fn collect(stderr: std::process::ChildStderr, into: Commits) {
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            match parse_line(&line) {
                Some(c) => into.lock().unwrap_or_else(|e| e.into_inner()).push(c),
                None => eprintln!("{line}"),
            }
        }
    });
}

/// What the join found: delivery from the commit (ms, sorted; a value
/// below 0 means the client had the event before the server's clock was
/// read after the commit's answer, i.e. the commit became visible first),
/// and how many received events had no traced commit.
#[derive(Debug, Default)]
pub(crate) struct Joined {
    pub(crate) delivery: Vec<f64>,
    pub(crate) unmatched: usize,
}

/// Joins received events with the commits that wrote them (same run, the
/// event's sequence number in the commit's range).
pub(crate) fn join(commits: &[Commit], received: &[Received]) -> Joined {
    let mut by_run: HashMap<&str, Vec<&Commit>> = HashMap::new();
    for c in commits {
        by_run.entry(c.run.as_str()).or_default().push(c);
    }
    let mut out = Joined::default();
    for r in received {
        let found = by_run.get(&*r.run).and_then(|cs| {
            cs.iter()
                .find(|c| (c.first_seq..=c.last_seq).contains(&r.seq))
        });
        match found {
            Some(c) => out.delivery.push(r.at_ms - c.committed_us as f64 / 1e3),
            None => out.unmatched += 1,
        }
    }
    out.delivery.sort_by(f64::total_cmp);
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_commit_line_coloured_or_not() {
        let plain = "2026-11-28T05:40:00.123456Z TRACE sentience_server::commits: turn committed run=run_7f3a first_seq=4 last_seq=7 committed_us=1795844400123456";
        let want = Commit {
            run: "run_7f3a".into(),
            first_seq: 4,
            last_seq: 7,
            committed_us: 1_795_844_400_123_456,
        };
        assert_eq!(parse_line(plain), Some(want.clone()));
        let coloured = "\u{1b}[2m2026-11-28T05:40:00.123456Z\u{1b}[0m \u{1b}[35mTRACE\u{1b}[0m \u{1b}[2msentience_server::commits\u{1b}[0m\u{1b}[2m:\u{1b}[0m turn committed \u{1b}[3mrun\u{1b}[0m\u{1b}[2m=\u{1b}[0mrun_7f3a \u{1b}[3mfirst_seq\u{1b}[0m\u{1b}[2m=\u{1b}[0m4 \u{1b}[3mlast_seq\u{1b}[0m\u{1b}[2m=\u{1b}[0m7 \u{1b}[3mcommitted_us\u{1b}[0m\u{1b}[2m=\u{1b}[0m1795844400123456";
        assert_eq!(parse_line(coloured), Some(want));
        // Other lines (the step trace, warnings) are not commits.
        assert_eq!(
            parse_line("WARN sentience_server: step parse_us=3 total_us=9"),
            None
        );
        // A commit line missing a field is not half-read.
        assert_eq!(
            parse_line("turn committed run=a first_seq=1 committed_us=5"),
            None
        );
    }

    #[test]
    fn joins_each_event_with_the_commit_of_its_run_and_sequence() {
        let c = |run: &str, first, last, us| Commit {
            run: run.into(),
            first_seq: first,
            last_seq: last,
            committed_us: us,
        };
        let r = |run: &str, seq, at_ms| Received {
            run: run.into(),
            seq,
            at_ms,
        };
        let commits = [
            c("a", 1, 1, 1_000_000),
            c("a", 2, 4, 2_000_000),
            c("b", 2, 4, 3_000_000),
        ];
        let got = join(
            &commits,
            &[
                r("a", 3, 2_005.5), // a's second commit: 5.5 ms
                r("b", 3, 3_001.0), // same seq, other run: b's commit, 1 ms
                r("a", 1, 1_000.25),
                r("b", 9, 9_999.0), // no commit traced for it
                r("c", 1, 1_000.0), // nor for an unknown run
                r("a", 4, 1_999.5), // seen before the server read its clock
            ],
        );
        assert_eq!(got.delivery, vec![-0.5, 0.25, 1.0, 5.5]);
        assert_eq!(got.unmatched, 2);
    }
}
