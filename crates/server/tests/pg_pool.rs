//! The PostgreSQL pool is opened before the first request
//! (`store/postgres/warm.rs`): when hundreds of runs start at once their
//! first steps must not queue for connections being opened. Only with
//! `SENTIENCE_TEST_STORE=postgres`.

mod common;

use common::TestDb;
use sentience_server::{PgOptions, Store};

#[tokio::test]
async fn every_pooled_connection_is_open_before_the_first_request() {
    if common::postgres_url().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let TestDb::Postgres(url) = TestDb::new(dir.path()).await else {
        unreachable!("postgres_url() is set");
    };
    let options = PgOptions {
        pool_size: 6,
        ..PgOptions::default()
    };
    let store = Store::connect(&url, options).await.expect("postgres store");
    // `/health` takes one connection for its query: with every other one
    // open and idle, nothing was opened on demand.
    let health = serde_json::to_value(store.health().await).expect("json");
    assert_eq!(health["status"], "ok", "{health}");
    assert_eq!(health["pool"]["open"], 6, "{health}");
    assert_eq!(health["pool"]["idle"], 6, "{health}");
    assert_eq!(health["pool"]["waiting"], 0, "{health}");
}
