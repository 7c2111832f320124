//! Durable runs: an embedded SQLite database (a file under the data
//! directory, or in memory for tests). Every state change is committed
//! before the response is sent, so a server killed mid-run and restarted
//! on the same file continues every run where it was. WAL with
//! synchronous=NORMAL survives a killed process (not a power cut).
//! Stored replies make a retried request with the same idempotency key
//! answer what the first one answered instead of advancing the run twice.

use rusqlite::{params, Connection, OptionalExtension};
use sentience_agent::Run;
use std::path::Path;
use std::sync::{Arc, Mutex};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Db(#[from] rusqlite::Error),
    #[error("stored run is corrupt: {0}")]
    Corrupt(#[from] serde_json::Error),
    #[error("database task failed: {0}")]
    Task(String),
}

/// A stored response for an idempotency key.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub body: String,
}

#[derive(Clone)]
pub struct Store {
    conn: Arc<Mutex<Connection>>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    body TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_updated_at ON runs(updated_at);
CREATE TABLE IF NOT EXISTS replies (
    run_id TEXT NOT NULL,
    idem_key TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    status INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (run_id, idem_key, endpoint)
);";

impl Store {
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        Store::init(conn)
    }

    pub fn in_memory() -> Result<Store, StoreError> {
        Store::init(Connection::open_in_memory()?)
    }

    fn init(conn: Connection) -> Result<Store, StoreError> {
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        Ok(Store {
            conn: Arc::new(Mutex::new(conn)),
        })
    }

    /// Run a closure on the connection off the async executor.
    async fn with<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let conn = self.conn.clone();
        tokio::task::spawn_blocking(move || {
            let mut guard = conn
                .lock()
                .map_err(|_| StoreError::Task("database lock poisoned".into()))?;
            f(&mut guard)
        })
        .await
        .map_err(|e| StoreError::Task(e.to_string()))?
    }

    pub async fn load(&self, run_id: &str) -> Result<Option<Run>, StoreError> {
        let id = run_id.to_string();
        self.with(move |c| {
            let body: Option<String> = c
                .query_row("SELECT body FROM runs WHERE run_id = ?1", [&id], |r| {
                    r.get(0)
                })
                .optional()?;
            Ok(match body {
                Some(b) => Some(serde_json::from_str(&b)?),
                None => None,
            })
        })
        .await
    }

    /// Save a run, and with it the reply for an idempotency key, atomically.
    pub async fn save(
        &self,
        run: &Run,
        reply: Option<(String, &'static str, Reply)>,
    ) -> Result<(), StoreError> {
        let body = serde_json::to_string(run)?;
        let (id, updated) = (run.run_id.clone(), run.updated_at as i64);
        self.with(move |c| {
            let tx = c.transaction()?;
            tx.execute(
                "INSERT INTO runs (run_id, body, updated_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT(run_id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at",
                params![id, body, updated],
            )?;
            if let Some((key, endpoint, r)) = reply {
                tx.execute(
                    "INSERT OR REPLACE INTO replies (run_id, idem_key, endpoint, status, body, created_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![id, key, endpoint, r.status, r.body, updated],
                )?;
            }
            tx.commit()?;
            Ok(())
        })
        .await
    }

    pub async fn reply(
        &self,
        run_id: &str,
        key: &str,
        endpoint: &'static str,
    ) -> Result<Option<Reply>, StoreError> {
        let (id, key) = (run_id.to_string(), key.to_string());
        self.with(move |c| {
            Ok(c.query_row(
                "SELECT status, body FROM replies WHERE run_id = ?1 AND idem_key = ?2 AND endpoint = ?3",
                params![id, key, endpoint],
                |r| Ok(Reply { status: r.get(0)?, body: r.get(1)? }),
            )
            .optional()?)
        })
        .await
    }

    /// Delete runs (and their replies) idle since before `cutoff_ms`.
    pub async fn expire(&self, cutoff_ms: u64) -> Result<usize, StoreError> {
        self.with(move |c| {
            let tx = c.transaction()?;
            tx.execute(
                "DELETE FROM replies WHERE run_id IN (SELECT run_id FROM runs WHERE updated_at < ?1)",
                [cutoff_ms as i64],
            )?;
            let n = tx.execute("DELETE FROM runs WHERE updated_at < ?1", [cutoff_ms as i64])?;
            tx.commit()?;
            Ok(n)
        })
        .await
    }

    pub async fn count(&self) -> Result<u64, StoreError> {
        self.with(|c| {
            Ok(c.query_row("SELECT COUNT(*) FROM runs", [], |r| r.get::<_, i64>(0))? as u64)
        })
        .await
    }
}
