//! How many WAL pages a step writes (docs/benchmarks.md "Agent server",
//! issue 24): the bytes every commit appends, the checkpointer copies back
//! and syncs. Many runs in progress, each step its own commit (a batch of
//! one: the database thread's worst case), writing what a turn writes: the
//! run's row (already compressed, ~1.3 KB and growing) and three events.

use super::{migrate, write_events, write_row, RunRow, StoredEvent};
use rusqlite::Connection;

/// Bytes that do not compress, like an LZ4 body (xorshift, fixed seed).
fn noise(state: &mut u64, n: usize) -> Vec<u8> {
    (0..n)
        .map(|_| {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            (*state >> 24) as u8
        })
        .collect()
}

#[test]
#[allow(clippy::unwrap_used)]
fn a_step_writes_few_wal_pages() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("runs.sqlite3");
    let mut c = Connection::open(&path).unwrap();
    c.pragma_update(None, "journal_mode", "WAL").unwrap();
    c.pragma_update(None, "synchronous", "NORMAL").unwrap();
    c.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
    migrate(&mut c).unwrap();
    let mut rng = 0x2545_f491_4f6c_dd1d_u64;
    let runs = 300;
    let row = |i: usize, step: i64| RunRow {
        run_id: format!("{i:08x}-7c1e-4b8e-9d2a-3f6b5e4d{i:04x}"),
        body: String::new(),
        updated_at: 1_700_000_000_000 + step,
        active: true,
        owner: Some("ip:127.0.0.1".into()),
        version: step + 1,
        last_seq: 3 * step,
    };
    for i in 0..runs {
        write_row(&c, &row(i, 0), &noise(&mut rng, 400)).unwrap();
    }
    c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)").unwrap();
    let frames = || {
        let len = std::fs::metadata(dir.path().join("runs.sqlite3-wal"))
            .map(|m| m.len())
            .unwrap_or(0);
        len.saturating_sub(32) / (4096 + 24)
    };
    let steps = 12;
    for step in 1..=steps {
        // Runs step in a shuffled order, as paced clients do.
        for k in 0..runs {
            let i = (k * 7 + step as usize * 31) % runs;
            let r = row(i, step);
            let packed = noise(&mut rng, 1_300 + 70 * step as usize);
            let events: Vec<StoredEvent> = (1..=3)
                .map(|n| StoredEvent {
                    seq: 3 * (step - 1) + n,
                    json: "e".repeat(230),
                })
                .collect();
            c.execute_batch("BEGIN").unwrap();
            write_row(&c, &r, &packed).unwrap();
            write_events(&c, &r.run_id, &events).unwrap();
            c.execute_batch("COMMIT").unwrap();
        }
    }
    let per_step = frames() as f64 / (runs * steps as usize) as f64;
    eprintln!("{per_step:.2} WAL pages per step");
    // With every event inserted into the middle of a tree keyed by the run's
    // text id (before migration V4) this was ~5.3.
    assert!(per_step < 4.6, "{per_step:.2} WAL pages per step");
}
