//! What a turn's commit writes, on either engine (SQLite by default,
//! PostgreSQL with `SENTIENCE_TEST_STORE=postgres`): the run's row, its
//! events and, only when the request carried an idempotency key, its reply.
//! PostgreSQL writes a turn with a reply and one without through different
//! statements (`store/postgres/turn.rs`), for a turn under the row lock and
//! for one written by compare-and-set: every combination is checked here.

mod common;

use common::TestDb;
use sentience_agent::{Run, RunMode};
use sentience_server::store::{Reply, RunRow, RunWrite, Store, StoredEvent};

/// The write of one turn: the run at `version` with events `seqs`, and a
/// reply for `key` if given.
fn change(run: &Run, version: i64, seqs: &[i64], key: Option<&str>) -> RunWrite {
    RunWrite {
        row: RunRow::of(run, version, *seqs.last().expect("an event")).expect("row"),
        reply: key.map(|k| {
            (
                k.to_string(),
                "step",
                Reply {
                    status: 200,
                    body: format!("{{\"key\":\"{k}\"}}"),
                },
            )
        }),
        events: seqs
            .iter()
            .map(|&seq| StoredEvent {
                seq,
                json: format!("{{\"seq\":{seq}}}"),
            })
            .collect(),
    }
}

/// One turn on `store`, locked or not, committing `step` with `key`.
async fn commit(
    store: &Store,
    run: &mut Run,
    version: i64,
    seqs: &[i64],
    key: Option<&str>,
    locked: bool,
) {
    let cached = Some(version - 1);
    let turn = if locked {
        store.turn_locked(&run.run_id, cached).await
    } else {
        store.turn(&run.run_id, cached).await
    }
    .expect("turn")
    .expect("run");
    run.current_step += 1;
    turn.commit(change(run, version, seqs, key))
        .await
        .expect("commit");
}

/// (locked, key): every statement PostgreSQL may choose for a turn, in
/// turn (compare-and-set or row lock, with or without an idempotency key).
const TURNS: [(bool, Option<&str>); 4] = [
    (false, None),
    (false, Some("k-cas")),
    (true, None),
    (true, Some("k-locked")),
];

#[tokio::test]
async fn a_turn_writes_its_row_and_events_and_a_reply_only_for_a_key() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = TestDb::new(dir.path()).await;
    let store = db.open().await;
    let mut run = Run::new("run-writes".into(), "log in".into(), RunMode::Autonomous);
    let first = store
        .create(&run, "anonymous".into(), 0, 0)
        .await
        .expect("create")
        .expect("under quota");

    let mut seq = first;
    for (i, (locked, key)) in TURNS.into_iter().enumerate() {
        let version = i as i64 + 2;
        let seqs = [seq + 1, seq + 2];
        seq += 2;
        commit(&store, &mut run, version, &seqs, key, locked).await;
    }

    let stored = store
        .read(&run.run_id, None)
        .await
        .expect("read")
        .expect("run")
        .expect("stored");
    assert_eq!(stored.version, 5);
    assert_eq!(stored.last_seq, seq);
    assert_eq!(stored.run.current_step, 4, "every turn's row was written");
    let mut keys: Vec<(String, String, String)> = stored
        .replies
        .iter()
        .map(|(k, e, r)| (k.clone(), e.clone(), r.body.clone()))
        .collect();
    keys.sort();
    assert_eq!(
        keys,
        vec![
            ("k-cas".into(), "step".into(), "{\"key\":\"k-cas\"}".into()),
            (
                "k-locked".into(),
                "step".into(),
                "{\"key\":\"k-locked\"}".into()
            ),
        ],
        "a reply for each key, none for the turns without one"
    );
    assert_eq!(db.count("replies").await, 2);
    let events = store.events(&run.run_id, 0, 100).await.expect("events");
    let seqs: Vec<i64> = events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, (1..=seq).collect::<Vec<_>>(), "numbered without gaps");
}

/// PostgreSQL's `idle_minute` (the expiry and quota index's column) is
/// written by the statements themselves since migration V3 (no longer a
/// generated column): the run's insert and every kind of turn keep it the
/// minute of `updated_at`, also when a turn moves the run to a later minute.
#[tokio::test]
async fn every_write_keeps_the_runs_idle_minute() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = TestDb::new(dir.path()).await;
    if !matches!(db, TestDb::Postgres(_)) {
        return;
    }
    let store = db.open().await;
    let mut run = Run::new("run-minute".into(), "log in".into(), RunMode::Autonomous);
    let first = store
        .create(&run, "anonymous".into(), 0, 0)
        .await
        .expect("create")
        .expect("under quota");
    let minute_is = |at: u64| format!("runs WHERE idle_minute = {}", at / 60_000);
    assert_eq!(db.count(&minute_is(run.updated_at)).await, 1, "insert");
    let mut seq = first;
    for (i, (locked, key)) in TURNS.into_iter().enumerate() {
        // A later minute at each turn: a statement that left the column
        // alone would keep the previous one.
        run.updated_at += 61_000;
        seq += 1;
        commit(&store, &mut run, i as i64 + 2, &[seq], key, locked).await;
        assert_eq!(
            db.count(&minute_is(run.updated_at)).await,
            1,
            "turn {i} (locked {locked}, key {key:?})"
        );
    }
    assert_eq!(
        db.count("runs WHERE idle_minute <> updated_at / 60000")
            .await,
        0
    );
}
