//! Migration V4 (events appended under their run's number): a database
//! written by an earlier server keeps every run and every event, each
//! event still its own run's, and events then append after them.

use super::{embedded, RunRow, RunStore, RunWrite, SqliteStore, StoredEvent};
use rusqlite::{params, Connection};
use sentience_agent::{Run, RunMode};

#[tokio::test]
#[allow(clippy::unwrap_used)]
async fn events_written_before_v4_stay_with_their_runs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("runs.sqlite3");
    {
        let mut c = Connection::open(&path).unwrap();
        embedded::migrations::runner()
            .set_target(refinery::Target::Version(3))
            .run(&mut c)
            .unwrap();
        for (i, id) in ["run-b", "run-a"].iter().enumerate() {
            let run = Run::new(id.to_string(), "a task".into(), RunMode::Autonomous);
            c.execute(
                "INSERT INTO runs (run_id, body, updated_at, active, version, last_seq, touched)
                 VALUES (?1, ?2, 1000, 1, 1, 2, 0)",
                params![id, serde_json::to_string(&run).unwrap()],
            )
            .unwrap();
            for seq in 1..=2 {
                c.execute(
                    "INSERT INTO run_events (run_id, seq, body) VALUES (?1, ?2, ?3)",
                    params![id, seq, format!("{id}/{seq}/{i}")],
                )
                .unwrap();
            }
        }
    }
    let store = SqliteStore::open(&path).unwrap();
    let seqs = |evs: Vec<StoredEvent>| evs.into_iter().map(|e| e.json).collect::<Vec<_>>();
    assert_eq!(
        seqs(store.events("run-a", 0, 10).await.unwrap()),
        ["run-a/1/1", "run-a/2/1"]
    );
    assert_eq!(
        seqs(store.events("run-b", 1, 10).await.unwrap()),
        ["run-b/2/0"]
    );
    // A new event appends after the migrated ones, for its run only.
    let turn = store.turn("run-b", None).await.unwrap().unwrap();
    let mut run = store.load("run-b").await.unwrap().unwrap().run;
    run.updated_at = 1000;
    let event = StoredEvent {
        seq: 3,
        json: "run-b/3".into(),
    };
    let write = RunWrite {
        row: RunRow::of(&run, 2, 3).unwrap(),
        reply: None,
        events: vec![event],
    };
    turn.commit(write).await.unwrap();
    assert_eq!(
        seqs(store.events("run-b", 0, 10).await.unwrap()),
        ["run-b/1/0", "run-b/2/0", "run-b/3"]
    );
    assert_eq!(
        seqs(store.events("run-a", 2, 10).await.unwrap()),
        [] as [&str; 0]
    );
    assert!(store.events("run-c", 0, 10).await.unwrap().is_empty());
    // Expiry takes a run's events with it, and only its.
    assert_eq!(store.expire(1001).await.unwrap(), 2);
    assert!(store.events("run-a", 0, 10).await.unwrap().is_empty());
}
