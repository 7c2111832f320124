//! A database written before the running-runs quota (docs/security.md) opens
//! as it is: its runs load, and new runs are counted per owner.
#![allow(clippy::unwrap_used)]

use sentience_agent::{Run, RunMode};
use sentience_server::Store;

#[tokio::test]
async fn a_database_without_owner_columns_is_migrated_on_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("runs.sqlite3");
    let old = Run::new("old-run".into(), "an old task".into(), RunMode::Autonomous);
    {
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute_batch(
            "CREATE TABLE runs (run_id TEXT PRIMARY KEY, body TEXT NOT NULL, updated_at INTEGER NOT NULL);",
        )
        .unwrap();
        c.execute(
            "INSERT INTO runs VALUES (?1, ?2, ?3)",
            rusqlite::params![
                old.run_id,
                serde_json::to_string(&old).unwrap(),
                old.updated_at as i64
            ],
        )
        .unwrap();
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(
        store.load("old-run").await.unwrap().unwrap().task,
        "an old task"
    );
    let a = Run::new("a".into(), "t".into(), RunMode::Autonomous);
    let b = Run::new("b".into(), "t".into(), RunMode::Autonomous);
    assert_eq!(
        store.create(&a, "ip:127.0.0.1".into(), 1, 0).await.unwrap(),
        Ok(1)
    );
    assert_eq!(
        store.create(&b, "ip:127.0.0.1".into(), 1, 0).await.unwrap(),
        Err(1)
    );
    assert_eq!(
        store.create(&b, "key:other".into(), 1, 0).await.unwrap(),
        Ok(1)
    );
}

/// Migration V3 and the compressed body (store/sqlite/body.rs): a new run's
/// body is stored compressed and loads back; `touched` holds the minute of
/// `updated_at`, and the quota window and expiry stay exact to the
/// millisecond although their index holds only the minute.
#[tokio::test]
async fn runs_are_stored_compressed_with_their_minute_indexed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("runs.sqlite3");
    let store = Store::open(&path).unwrap();
    let mut run = Run::new(
        "r1".into(),
        "buy the cheapest kettle".into(),
        RunMode::Autonomous,
    );
    // A minute and a half into a minute, so that window edges fall inside it.
    run.updated_at = 1_700_000_040_000 + 30_000;
    let at = run.updated_at;
    assert_eq!(
        store.create(&run, "key:a".into(), 0, 0).await.unwrap(),
        Ok(1)
    );
    {
        let c = rusqlite::Connection::open(&path).unwrap();
        let (kind, touched, updated): (String, i64, i64) = c
            .query_row(
                "SELECT typeof(body), touched, updated_at FROM runs WHERE run_id = 'r1'",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!(kind, "blob");
        assert_eq!((touched, updated), (at as i64 / 60_000, at as i64));
    }
    assert_eq!(
        store.load("r1").await.unwrap().unwrap().task,
        "buy the cheapest kettle"
    );
    // The quota counts runs used since a time within the same minute: the
    // run used 1 ms after it counts, 1 ms before it does not.
    let other = Run::new("r2".into(), "t".into(), RunMode::Autonomous);
    assert_eq!(
        store
            .create(&other, "key:a".into(), 1, at - 1)
            .await
            .unwrap(),
        Err(1)
    );
    assert_eq!(
        store
            .create(&other, "key:a".into(), 1, at + 1)
            .await
            .unwrap(),
        Ok(1)
    );
    // Expiry: a cutoff at the run's own millisecond keeps it, 1 ms later
    // removes it (r2 was used now, far later, and stays).
    assert_eq!(store.expire(at).await.unwrap(), 0);
    assert_eq!(store.expire(at + 1).await.unwrap(), 1);
    assert!(store.load("r1").await.unwrap().is_none());
    assert!(store.load("r2").await.unwrap().is_some());
}
