//! Time the CPU work of one /step, phase by phase, without HTTP or SQLite:
//! the bench-server's sequence (a login task, 10 steps per run, the same
//! 40-element snapshot each step). `cargo run --release -p sentience-agent
//! --example step_cost`
use sentience_agent::{Run, RunMode, ScorerPolicy, Snapshot, ToolResult};
use serde_json::json;
use serde_json::value::RawValue;
use std::collections::HashMap;
use std::time::{Duration, Instant};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let snap = sentience_agent::sample::login_page_snapshot();
    let body = serde_json::to_vec(
        &json!({"snapshot": snap, "lastActionResult": {"success": true, "message": "ok"}}),
    )
    .expect("body");
    let names = [
        "body members",
        "snapshot parse",
        "run.step (scorer)",
        "run to JSON",
        "reply to JSON",
        "run from JSON (cache miss only)",
    ];
    let mut t = [Duration::ZERO; 6];
    let mut n = 0u32;
    for _ in 0..300 {
        let mut run = Run::new(
            "x".into(),
            "Log in as \"alice\" with password \"s3cret\"".into(),
            RunMode::Autonomous,
        );
        for _ in 0..10 {
            n += 1;
            let a = Instant::now();
            let members: HashMap<String, &RawValue> =
                serde_json::from_slice(&body).expect("members");
            let raw = RawValue::to_owned(members.get("snapshot").expect("snapshot"));
            let b = Instant::now();
            let snapshot = Snapshot::parse(raw).expect("snapshot");
            let c = Instant::now();
            let last = ToolResult {
                success: true,
                ..Default::default()
            };
            let r = run
                .step(Some(snapshot), Some(last), &ScorerPolicy)
                .await
                .expect("step");
            let d = Instant::now();
            let stored = serde_json::to_string(&run).expect("run json");
            let e = Instant::now();
            let _reply = serde_json::to_string(&r).expect("reply json");
            let f = Instant::now();
            run = serde_json::from_str(&stored).expect("run");
            let g = Instant::now();
            for (i, (x, y)) in [(a, b), (b, c), (c, d), (d, e), (e, f), (f, g)]
                .into_iter()
                .enumerate()
            {
                t[i] += y - x;
            }
        }
    }
    for (name, d) in names.iter().zip(t) {
        println!(
            "{name:>32}: {:7.1} µs",
            d.as_secs_f64() * 1e6 / f64::from(n)
        );
    }
    let per_step: Duration = t[..5].iter().sum();
    println!(
        "{:>32}: {:7.1} µs",
        "per step (cached run)",
        per_step.as_secs_f64() * 1e6 / f64::from(n)
    );
}
