//! PostgreSQL turns across replicas, at the store's level (docs/server.md
//! "Running several replicas"): a replica that wrote a run last decides
//! without the row lock and writes by compare-and-set; a change another
//! replica committed meanwhile makes that write fail (nothing written) and
//! the next turn take the lock with the stored run. Only with
//! `SENTIENCE_TEST_STORE=postgres` (SQLite has one process: no replicas).

mod common;

use common::TestDb;
use sentience_agent::{Run, RunMode};
use sentience_server::store::{RunRow, RunWrite, StoreError, StoredEvent};
use std::time::{Duration, Instant};

/// The write of one turn: the run at `version` with one event numbered `seq`.
fn change(run: &Run, version: i64, seq: i64, what: &str) -> RunWrite {
    RunWrite {
        row: RunRow::of(run, version, seq).expect("row"),
        reply: None,
        events: vec![StoredEvent {
            seq,
            json: format!("{{\"seq\":{seq},\"what\":\"{what}\"}}"),
        }],
    }
}

#[tokio::test]
async fn a_compare_and_set_turn_loses_to_another_replicas_change_and_writes_nothing() {
    if common::postgres_url().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let db = TestDb::new(dir.path()).await;
    let (a, b) = (db.open().await, db.open().await);
    let mut run = Run::new("run-cas".into(), "log in".into(), RunMode::Autonomous);
    let first = a
        .create(&run, "anonymous".into(), 0, 0)
        .await
        .expect("create")
        .expect("under quota");

    // A created the run (version 1): its turn on that copy takes no lock.
    let on_a = a
        .turn(&run.run_id, Some(1))
        .await
        .expect("turn")
        .expect("run");
    assert!(on_a.may_conflict(), "A wrote the run last: compare-and-set");
    assert!(on_a.stale.is_none());

    // Meanwhile B (no copy) takes the row lock, reads the run, commits v2.
    let mut on_b = b.turn(&run.run_id, None).await.expect("turn").expect("run");
    assert!(!on_b.may_conflict(), "B has no copy: the row lock");
    let stored = on_b.stale.take().expect("B read the stored run");
    assert_eq!(stored.version, 1);
    run.current_step = 1;
    on_b.commit(change(&run, 2, first + 1, "from B"))
        .await
        .expect("B commits");

    // A's change, decided on version 1, is not written.
    run.current_step = 7;
    let lost = on_a.commit(change(&run, 2, first + 1, "from A")).await;
    assert!(
        matches!(lost, Err(StoreError::Conflict)),
        "expected a conflict, got {:?}",
        lost.err()
    );
    let events = a.events(&run.run_id, 0, 100).await.expect("events");
    assert_eq!(events.len() as i64, first + 1);
    assert!(events.last().expect("event").json.contains("from B"));
    let now = a.load(&run.run_id).await.expect("load").expect("run");
    assert_eq!(now.current_step, 1, "B's change stands");

    // A's next turn takes the lock and gets the stored run.
    let mut again = a
        .turn(&run.run_id, Some(1))
        .await
        .expect("turn")
        .expect("run");
    assert!(!again.may_conflict());
    let fresh = again.stale.take().expect("the stored run");
    assert_eq!((fresh.version, fresh.run.current_step), (2, 1));
    again.release().await;

    // `/health` counts them: A one turn without a lock (lost), one under
    // the lock; B one under the lock.
    let turns = |h: sentience_server::store::StoreHealth| h.details["turns"].clone();
    assert_eq!(
        turns(a.health().await),
        serde_json::json!({"optimistic": 1, "locked": 1, "conflicts": 1})
    );
    assert_eq!(
        turns(b.health().await),
        serde_json::json!({"optimistic": 0, "locked": 1, "conflicts": 0})
    );
}

#[tokio::test]
async fn a_replica_that_hears_of_another_replicas_change_takes_the_lock() {
    if common::postgres_url().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let db = TestDb::new(dir.path()).await;
    let (a, b) = (db.open().await, db.open().await);
    let mut run = Run::new("run-heard".into(), "log in".into(), RunMode::Autonomous);
    let first = a
        .create(&run, "anonymous".into(), 0, 0)
        .await
        .expect("create")
        .expect("under quota");
    let mut on_b = b.turn(&run.run_id, None).await.expect("turn").expect("run");
    on_b.stale.take();
    run.current_step = 1;
    on_b.commit(change(&run, 2, first + 1, "from B"))
        .await
        .expect("B commits");
    // B's commit is announced to A (LISTEN/NOTIFY): A's copy (version 1) is
    // then no longer taken for the stored one.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let t = a
            .turn(&run.run_id, Some(1))
            .await
            .expect("turn")
            .expect("run");
        let locked = !t.may_conflict();
        t.release().await;
        if locked {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "A never heard of B's change to the run"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
