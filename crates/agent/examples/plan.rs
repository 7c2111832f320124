//! Development aid: the planner's decision on a dumped page
//! (tests/bench/planner-replay.mjs), with the task's steps and each
//! element as the planner reads it.
//!   cargo run -p sentience-agent --example plan -- page.json "Click Submit" [history.json]
use sentience_agent::policy::Baseline;
use sentience_agent::{Page, Planner, Situation};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (file, task, history) = match args.as_slice() {
        [f, t] => (f, t, Vec::new()),
        // HISTORY.json: the run's history entries so far (run API form).
        [f, t, h] => {
            let json = std::fs::read_to_string(h).unwrap_or_else(|e| panic!("{h}: {e}"));
            let v: Vec<sentience_agent::types::HistoryEntry> =
                serde_json::from_str(&json).unwrap_or_else(|e| panic!("{h}: {e}"));
            (f, t, v)
        }
        _ => {
            eprintln!("usage: plan PAGE.json TASK [HISTORY.json]");
            std::process::exit(2);
        }
    };
    let json = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let (page, _) = Page::from_json_str(&json).unwrap_or_else(|e| panic!("{file}: {e}"));
    for e in &page.elements {
        println!(
            "{:>4} {:<9} {:<8} {:<10} label={:?} hint={:?} form={} box=({:.0},{:.0} {:.0}x{:.0})",
            page.id_of(e).key(),
            e.role().as_str(),
            e.facts.tag,
            e.facts.aria_role,
            e.label(),
            e.facts.hint,
            e.facts.form,
            e.element.bbox.x,
            e.element.bbox.y,
            e.element.bbox.width,
            e.element.bbox.height
        );
    }
    println!("text: {}", page.visible_text);
    let planner = Planner::new(task);
    println!("steps: {}", planner.intent().describe());
    let d = planner.next(&Situation {
        page: &page,
        history: &history,
        avoid: &[],
        baseline: &Baseline::default(),
    });
    println!("decision: {d:?}");
}
