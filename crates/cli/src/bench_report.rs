//! What `sentience bench-server` prints per level (bench_server.rs): latency,
//! rate, CPU per request by whom (servers, PostgreSQL, proxy, load
//! generator) and the time they waited for a core, the paced level's
//! steady rate and lag, stream delivery; and the per-step trace file.

use crate::bench_load::{pct, Level, Measured};
use crate::bench_procs::{cpu_of, family_cpu, run_queue_wait, threads_cpu};
use crate::bench_target::Target;
use std::time::Duration;

/// CPU spent during a level, by whom.
#[derive(Default, Clone, Copy)]
pub(crate) struct Cpu {
    servers: Duration,
    postgres: Duration,
    /// The load generator's thread (its HTTP clients and stream readers).
    generator: Duration,
    proxy: Duration,
    /// Time the servers' threads, and PostgreSQL's processes, were
    /// runnable but waiting for a core.
    servers_queued: Duration,
    postgres_queued: Duration,
}

impl Cpu {
    pub(crate) fn now(t: &Target, pg: &[u32]) -> Cpu {
        Cpu {
            servers: cpu_of(&t.pids),
            postgres: family_cpu(t.postmaster),
            servers_queued: run_queue_wait(&t.pids),
            postgres_queued: run_queue_wait(pg),
            // The generator is this process's main thread (TID = PID) and
            // its stream readers' thread.
            generator: threads_cpu(&[std::process::id()]) + threads_cpu(&t.readers.tids()),
            proxy: t
                .proxy
                .as_ref()
                .map_or(Duration::ZERO, |p| threads_cpu(&p.threads())),
        }
    }

    pub(crate) fn since(self, before: Cpu) -> Cpu {
        Cpu {
            servers: self.servers.saturating_sub(before.servers),
            postgres: self.postgres.saturating_sub(before.postgres),
            generator: self.generator.saturating_sub(before.generator),
            proxy: self.proxy.saturating_sub(before.proxy),
            servers_queued: self.servers_queued.saturating_sub(before.servers_queued),
            postgres_queued: self.postgres_queued.saturating_sub(before.postgres_queued),
        }
    }
}

fn mode(think: Duration, burst: bool, streams: bool) -> &'static str {
    match (think.is_zero(), burst, streams) {
        (true, ..) => "closed",
        (false, _, true) => "stream",
        (false, false, false) => "paced",
        (false, true, false) => "burst",
    }
}

pub(crate) fn report(t: &Target, l: &Level, m: &Measured, cpu: Cpu) {
    let requests = (m.steps.len() + m.runs_started).max(1) as f64;
    let mut line = format!(
        "{:>6} | {:>5} runs | {:>5} steps | p50 {:>7.3} ms | p99 {:>7.3} ms | max {:>7.1} ms | {:>6.0} steps/s | server CPU {:>4.0} µs/req",
        mode(l.think, l.burst, !l.streams.is_empty()),
        l.runs,
        m.steps.len(),
        pct(&m.steps, 0.50),
        pct(&m.steps, 0.99),
        pct(&m.steps, 1.0),
        m.steps.len() as f64 / m.wall.as_secs_f64(),
        cpu.servers.as_secs_f64() * 1e6 / requests,
    );
    let per = |d: Duration| d.as_secs_f64() * 1e6 / requests;
    if t.postmaster.is_some() {
        line.push_str(&format!(" + PostgreSQL {:>4.0} µs/req", per(cpu.postgres)));
    }
    if t.proxy.is_some() {
        line.push_str(&format!(" + proxy {:>4.0} µs/req", per(cpu.proxy)));
    }
    line.push_str(&format!(
        " (load generator {:.0} µs/req; all {:.0} µs/req)",
        per(cpu.generator),
        per(cpu.servers + cpu.postgres + cpu.proxy + cpu.generator)
    ));
    line.push_str(&format!(
        " | waiting for a core: server {:.0} µs/req",
        per(cpu.servers_queued)
    ));
    if t.postmaster.is_some() {
        line.push_str(&format!(
            ", PostgreSQL {:.0} µs/req",
            per(cpu.postgres_queued)
        ));
    }
    if !l.think.is_zero() {
        // The paced level's rate between ramp-up and ramp-down (the whole
        // level's rate above also counts the runs' staggered start and the
        // pause after each run's last step), the generator's own lag, and
        // the runs' first steps apart from the others.
        let mut sent: Vec<f64> = m.samples.iter().map(|s| s.sent).collect();
        sent.sort_by(f64::total_cmp);
        let (a, b) = (pct(&sent, 0.25), pct(&sent, 0.75));
        let steady = if b > a {
            (sent.len() / 2) as f64 / ((b - a) / 1e3)
        } else {
            0.0
        };
        let split = |first: bool| {
            let mut v: Vec<f64> = m
                .samples
                .iter()
                .filter(|s| (s.nth == 0) == first)
                .map(|s| s.latency)
                .collect();
            v.sort_by(f64::total_cmp);
            pct(&v, 0.99)
        };
        line.push_str(&format!(
            " | steady {steady:.0} steps/s | p99 first steps {:.1} ms, others {:.1} ms | generator lag p50 {:.2} ms p99 {:.2} ms",
            split(true),
            split(false),
            pct(&m.lag, 0.5),
            pct(&m.lag, 0.99),
        ));
    }
    if !l.streams.is_empty() {
        line.push_str(&format!(
            " | stream: {} events ({} replayed on connect, not counted), delivery p50 {:.1} ms p99 {:.1} ms max {:.1} ms",
            m.delivery.len(),
            m.arrivals.len() - m.delivery.len(),
            pct(&m.delivery, 0.5),
            pct(&m.delivery, 0.99),
            pct(&m.delivery, 1.0)
        ));
    }
    println!("{line}");
    if let Some(path) = std::env::var_os("SENTIENCE_BENCH_TRACE") {
        // Every step of the level (appended, one level after another):
        // level, ms after the level started, latency ms, step of its run
        // (stream events: arrival, delivery ms, "event", or "replay" when
        // committed before the stream was open).
        let name = format!(
            "{}-{}",
            mode(l.think, l.burst, !l.streams.is_empty()),
            l.runs
        );
        let mut out = String::new();
        for s in &m.samples {
            out.push_str(&format!(
                "{name},{:.3},{:.3},{}\n",
                s.sent, s.latency, s.nth
            ));
        }
        for a in &m.arrivals {
            let kind = if a.replay { "replay" } else { "event" };
            out.push_str(&format!("{name},{:.3},{:.3},{kind}\n", a.at, a.delivery));
        }
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| std::io::Write::write_all(&mut f, out.as_bytes()));
        if let Err(e) = written {
            eprintln!("SENTIENCE_BENCH_TRACE: {e}");
        }
    }
}

/// PostgreSQL servers' turns so far, summed over the servers (`/health`'s
/// `store.turns`): [optimistic, locked, compare-and-set lost].
pub(crate) async fn turns(t: &Target) -> Option<[u64; 3]> {
    t.postmaster?;
    let mut sum = [0; 3];
    for s in &t.servers {
        let v: serde_json::Value = reqwest::get(format!("http://{s}/health"))
            .await
            .ok()?
            .json()
            .await
            .ok()?;
        let turns = &v["store"]["turns"];
        for (n, k) in sum.iter_mut().zip(["optimistic", "locked", "conflicts"]) {
            *n += turns[k].as_u64()?;
        }
    }
    Some(sum)
}
