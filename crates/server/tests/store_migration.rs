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
        store
            .create_run(&a, "ip:127.0.0.1".into(), 1, 0)
            .await
            .unwrap(),
        Ok(())
    );
    assert_eq!(
        store
            .create_run(&b, "ip:127.0.0.1".into(), 1, 0)
            .await
            .unwrap(),
        Err(1)
    );
    assert_eq!(
        store
            .create_run(&b, "key:other".into(), 1, 0)
            .await
            .unwrap(),
        Ok(())
    );
}
