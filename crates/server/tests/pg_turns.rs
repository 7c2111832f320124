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

/// Compare-and-set turns committed at once share commits (the writer
/// tasks, `store/postgres/group.rs`), and each keeps its own outcome: a
/// write whose statement fails (an event number already stored) and one
/// whose compare-and-set lost fail alone; every other write of their group
/// is committed, with its events.
#[tokio::test]
async fn turns_committed_together_share_commits_and_keep_their_own_outcome() {
    if common::postgres_url().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let db = TestDb::new(dir.path()).await;
    let (a, b) = (db.open().await, db.open().await);
    let mut runs = Vec::new();
    for i in 0..40 {
        let run = Run::new(
            format!("run-group-{i}"),
            "log in".into(),
            RunMode::Autonomous,
        );
        let first = a
            .create(&run, "anonymous".into(), 0, 0)
            .await
            .expect("create")
            .expect("under quota");
        runs.push((run, first));
    }
    // Run 1 is changed by B: A's copy of it is stale.
    let mut on_b = b
        .turn("run-group-1", None)
        .await
        .expect("turn")
        .expect("run");
    on_b.stale.take();
    let (r1, first1) = &runs[1];
    on_b.commit(change(r1, 2, first1 + 1, "from B"))
        .await
        .expect("B commits");
    let mut commits = Vec::new();
    for (i, (run, first)) in runs.iter_mut().enumerate() {
        let turn = a
            .turn(&run.run_id, Some(1))
            .await
            .expect("turn")
            .expect("run");
        assert!(turn.may_conflict(), "A wrote run {i} last: compare-and-set");
        run.current_step = 5;
        // Run 0's event reuses a number already stored: its statement fails.
        let seq = if i == 0 { *first } else { *first + 1 };
        commits.push(turn.commit(change(run, 2, seq, "from A")));
    }
    let outcomes = futures_util::future::join_all(commits).await;
    for (i, o) in outcomes.iter().enumerate() {
        match i {
            0 => assert!(
                matches!(o, Err(e) if !matches!(e, StoreError::Conflict)),
                "run 0: expected the statement's error, got {o:?}"
            ),
            1 => assert!(
                matches!(o, Err(StoreError::Conflict)),
                "run 1: expected a conflict, got {o:?}"
            ),
            _ => assert!(o.is_ok(), "run {i}: {o:?}"),
        }
    }
    for (i, (run, first)) in runs.iter().enumerate() {
        let stored = a.load(&run.run_id).await.expect("load").expect("run");
        let events = a.events(&run.run_id, 0, 100).await.expect("events");
        let last = events.last().expect("event").json.clone();
        match i {
            0 => {
                assert_eq!(stored.current_step, 0, "run 0 unchanged");
                assert_eq!(events.len() as i64, *first);
            }
            1 => assert!(last.contains("from B"), "run 1 keeps B's change"),
            _ => {
                assert_eq!(stored.current_step, 5, "run {i} written");
                assert_eq!(events.len() as i64, first + 1, "run {i}'s event");
                assert!(last.contains("from A"));
            }
        }
    }
    let writer = a.health().await.details["writer"].clone();
    let (commits, writes) = (writer["commits"].as_u64(), writer["writes"].as_u64());
    assert!(
        matches!((commits, writes), (Some(c), Some(w)) if w >= 39 && c < w),
        "expected writes grouped into fewer commits: {writer}"
    );
}
