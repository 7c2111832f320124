//! Times the engine natively on a raw page dumped from the walker
//! (`{"meta":[…],"nums":[…],"strs":"…"}`), stage by stage.
//!
//! cargo run --release -p sentience-snapshot-core --example engine_time -- raw.json [iterations]
use sentience_snapshot_core::diff::History;
use sentience_snapshot_core::{snapshot_json_tracked, Tracking, WireInput};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: engine_time RAW.json [iterations]");
        std::process::exit(2);
    };
    let iterations: usize = args
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(50)
        .max(1);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let raw: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let floats = |key: &str| -> Vec<f64> {
        raw[key]
            .as_array()
            .map(|a| a.iter().filter_map(|v| v.as_f64()).collect())
            .unwrap_or_default()
    };
    let meta = floats("meta");
    let nums = floats("nums");
    let strs = raw["strs"].as_str().unwrap_or("");
    let mut history = History::new();
    let mut times = Vec::with_capacity(iterations);
    let mut len = 0;
    for i in 0..iterations {
        let t0 = Instant::now();
        let input = WireInput {
            meta: &meta,
            nums: &nums,
            strs,
            options: "null",
            frames: "",
        };
        let json = snapshot_json_tracked(
            input,
            "native",
            Tracking::new(i as u32 + 1, i as u32, -1, false),
            history.for_page(0),
        );
        times.push(t0.elapsed().as_secs_f64() * 1000.0);
        len = json.len();
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{} nodes, {} bytes of JSON: median {:.2} ms, min {:.2} ms",
        meta.get(4).copied().unwrap_or(0.0),
        len,
        times[times.len() / 2],
        times[0]
    );
}
