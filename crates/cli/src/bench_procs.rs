//! `sentience bench-server`'s view of processes and threads: CPU time and
//! memory from `/proc` (Linux), and the load generator's stream readers on a
//! thread of their own.

use std::sync::{Arc, Mutex};
use std::time::Duration;

/// This thread's id (Linux: `/proc/thread-self` links to `PID/task/TID`).
pub fn thread_id() -> Option<u32> {
    std::fs::read_link("/proc/thread-self")
        .ok()?
        .file_name()?
        .to_str()?
        .parse()
        .ok()
}

/// `VmRSS` of a process, in KB.
pub fn rss_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

/// (utime + stime, parent pid) of a process.
pub fn stat(pid: u32) -> Option<(Duration, u32)> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the parenthesised command name: ppid is the 4th field
    // of the line, utime and stime the 14th and 15th.
    let rest = s.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    // USER_HZ is 100 on Linux.
    Some((Duration::from_millis(ticks * 10), f.get(1)?.parse().ok()?))
}

pub fn cpu_of(pids: &[u32]) -> Duration {
    pids.iter().filter_map(|&p| stat(p)).map(|(t, _)| t).sum()
}

/// CPU of the children a process has waited for (cutime + cstime).
fn reaped_cpu(pid: u32) -> Duration {
    let Ok(s) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return Duration::ZERO;
    };
    let f: Vec<&str> = s
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks: u64 = [13, 14]
        .iter()
        .filter_map(|&i| f.get(i)?.parse::<u64>().ok())
        .sum();
    Duration::from_millis(ticks * 10)
}

/// CPU of a process and of every child it has or had: its own, its live
/// children's and its reaped children's. For PostgreSQL (the postmaster)
/// this counts a backend forked during a level, or one that exited during
/// it, which a list of processes taken before the level missed: the bench
/// read 66–95 µs per step for builds that opened their pool during the
/// level, 220–290 µs for the same work with the pool open before it
/// (docs/benchmarks.md, issue-24d and issue-24z).
pub fn family_cpu(parent: Option<u32>) -> Duration {
    let Some(parent) = parent else {
        return Duration::ZERO;
    };
    cpu_of(&postgres_processes(Some(parent))) + reaped_cpu(parent)
}

/// How long the threads of these processes have waited for a core while
/// runnable (`/proc/PID/task/*/schedstat`, 2nd field, ns): with the CPU
/// time, tells a step that queued for a core from one that waited for
/// something else (a lock, the disk, a round trip).
pub fn run_queue_wait(pids: &[u32]) -> Duration {
    let mut ns = 0u64;
    for pid in pids {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        for t in tasks.flatten() {
            let waited = std::fs::read_to_string(t.path().join("schedstat"))
                .ok()
                .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok());
            ns += waited.unwrap_or(0);
        }
    }
    Duration::from_nanos(ns)
}

/// CPU of threads of this process (`/proc/self/task/TID/stat`).
pub fn threads_cpu(tids: &[u32]) -> Duration {
    tids.iter()
        .filter_map(|&t| {
            let s = std::fs::read_to_string(format!("/proc/self/task/{t}/stat")).ok()?;
            let f: Vec<&str> = s.rsplit_once(')')?.1.split_whitespace().collect();
            let ticks = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
            Some(Duration::from_millis(ticks * 10))
        })
        .sum()
}

/// The PostgreSQL server process and its children now (backends, writers).
pub fn postgres_processes(postmaster: Option<u32>) -> Vec<u32> {
    let Some(postmaster) = postmaster else {
        return Vec::new();
    };
    let mut pids = vec![postmaster];
    if let Ok(dir) = std::fs::read_dir("/proc") {
        for e in dir.flatten() {
            if let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) {
                if stat(pid).is_some_and(|(_, ppid)| ppid == postmaster) {
                    pids.push(pid);
                }
            }
        }
    }
    pids
}

/// The load generator's stream readers: a runtime of one worker thread.
pub struct Readers {
    rt: Option<tokio::runtime::Runtime>,
    tids: Arc<Mutex<Vec<u32>>>,
}

impl Readers {
    pub fn start() -> anyhow::Result<Readers> {
        let tids = Arc::new(Mutex::new(Vec::new()));
        let seen = tids.clone();
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("bench-streams")
            .on_thread_start(move || {
                if let Some(t) = thread_id() {
                    seen.lock().unwrap_or_else(|e| e.into_inner()).push(t);
                }
            })
            .enable_all()
            .build()?;
        Ok(Readers { rt: Some(rt), tids })
    }

    pub fn handle(&self) -> tokio::runtime::Handle {
        self.rt
            .as_ref()
            .map_or_else(tokio::runtime::Handle::current, |r| r.handle().clone())
    }

    pub fn tids(&self) -> Vec<u32> {
        self.tids.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl Drop for Readers {
    fn drop(&mut self) {
        if let Some(rt) = self.rt.take() {
            // Dropped inside the load generator's runtime: no blocking wait.
            rt.shutdown_background();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A child that worked and exited during a measurement is counted
    /// (as a PostgreSQL backend closed during a level is).
    #[test]
    fn a_child_that_exited_is_counted() {
        let me = std::process::id();
        let before = family_cpu(Some(me));
        let status = std::process::Command::new("sh")
            .args(["-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done"])
            .status()
            .expect("sh");
        assert!(status.success());
        let after = family_cpu(Some(me));
        assert!(
            after >= before + Duration::from_millis(50),
            "before {before:?}, after {after:?}"
        );
    }
}
