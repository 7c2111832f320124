//! The embedded engine: SQLite in a file under the data directory (or in
//! memory for tests). One process owns the file ("one server per data
//! dir"): its in-process per-run lock is the whole of a turn's lock, and a
//! cached run is never stale, so a step on a cached run touches the
//! database once, to write.
//!
//! Durability, WAL with `synchronous=NORMAL`: a commit appends the
//! transaction's pages to the `-wal` file with write(2) and returns; the
//! data is then in the kernel's page cache, which outlives the process. A
//! server killed at any point (kill -9, panic, OOM killer) loses nothing it
//! has answered: on the next open SQLite replays every committed
//! transaction found in the WAL (frames are checksummed, so a torn tail is
//! ignored, never half-applied). What NORMAL gives up compared with FULL is
//! the fsync at each commit, so an OS crash or power cut may lose the last
//! commits before a checkpoint (never corrupt the database). FULL would add
//! an fsync (4 ms median, 20 ms p90 on this VM's disk) to every answer.
//! Commits are grouped by the database thread (`writer.rs`); checkpoints
//! run beside it (`checkpoint.rs`).

mod body;
mod browse;
mod checkpoint;
#[cfg(test)]
mod events_migration;
#[cfg(test)]
mod step_pages;
mod writer;

use super::{
    Engine, RunRow, RunStore, RunWrite, StoreError, StoreHealth, StoredEvent, StoredRun, Turn,
    TurnLock,
};
use crate::hub::Hub;
use async_trait::async_trait;
use rusqlite::{params, Connection, OptionalExtension};
use sentience_agent::Run;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::Arc;
use writer::Writer;

mod embedded {
    refinery::embed_migrations!("migrations/sqlite");
}

/// Databases written before quotas (docs/security.md) lack the two columns
/// that count a caller's running runs; they are added before the versioned
/// migrations (whose first one is the schema as it was then) run.
const MIGRATE_OWNER: &str = "
ALTER TABLE runs ADD COLUMN owner TEXT;
ALTER TABLE runs ADD COLUMN active INTEGER NOT NULL DEFAULT 0;";

/// A run's change, written by two statements so that a step leaves the
/// indexes alone (migration V3): the first sets only unindexed columns; the
/// second moves the run's index entries, and matches a row only when its
/// `active` or `touched` (the minute of `updated_at`) changed: at its last
/// step, or once a minute.
const UPDATE_RUN: &str = "UPDATE runs SET body = ?2, updated_at = ?3, version = ?4, last_seq = ?5
     WHERE run_id = ?1";
const UPDATE_RUN_INDEXED: &str = "UPDATE runs SET active = ?2, touched = ?3
     WHERE run_id = ?1 AND (active <> ?2 OR touched <> ?3)";
/// A new run (or one expired while its turn was decided, as before the
/// split). `owner` is written when the run is created and kept by later
/// writes.
const UPSERT_RUN: &str =
    "INSERT INTO runs (run_id, body, updated_at, active, owner, version, last_seq, touched)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
     ON CONFLICT(run_id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at,
     active = excluded.active, version = excluded.version, last_seq = excluded.last_seq,
     touched = excluded.touched";
/// `touched` narrows through the index; `updated_at` is the exact rule.
const COUNT_ACTIVE: &str = "SELECT COUNT(*) FROM runs WHERE owner = ?1 AND active = 1
     AND touched >= ?2 / 60000 AND updated_at >= ?2";
/// What `touched` holds for a change at `updated_at` (ms).
fn minute(updated_at: i64) -> i64 {
    updated_at.div_euclid(60_000)
}
const INSERT_REPLY: &str =
    "INSERT OR REPLACE INTO replies (run_id, idem_key, endpoint, status, body, created_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
/// Events are appended under their run's number (migration V4), which the
/// run's row holds.
const RUN_NO: &str = "SELECT run_no FROM runs WHERE run_id = ?1";
const INSERT_EVENT: &str = "INSERT INTO run_events (run_no, seq, body) VALUES (?1, ?2, ?3)";

pub struct SqliteStore {
    writer: Writer,
    hub: Arc<Hub>,
    path: Option<PathBuf>,
}

/// The writer's connection, measured under load (docs/benchmarks.md "Agent
/// server"): each job runs in a savepoint, whose journal of the pages it
/// changes SQLite keeps in a temporary file past 64 KB; a batch of 50 jobs
/// then created and deleted a file per commit. In memory it costs nothing
/// to durability (a savepoint journal only undoes a failed job). The default
/// page cache (2 MB) is smaller than the pages 500 runs in progress touch,
/// so rows were read back from the file; 64 MB holds them.
fn tune(conn: &Connection) -> Result<(), StoreError> {
    conn.pragma_update(None, "temp_store", "MEMORY")?;
    conn.pragma_update(None, "cache_size", -65_536)?;
    Ok(())
}

/// Brings a database up to the current schema: the pre-migration
/// adjustment above, then every versioned migration not yet applied.
fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let has_runs = conn
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'")?
        .exists([])?;
    let has_owner = conn
        .prepare("SELECT 1 FROM pragma_table_info('runs') WHERE name = 'owner'")?
        .exists([])?;
    if has_runs && !has_owner {
        conn.execute_batch(MIGRATE_OWNER)?;
    }
    embedded::migrations::runner()
        .set_abort_divergent(true)
        .run(conn)?;
    Ok(())
}

impl SqliteStore {
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let mut conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // Durable against a killed process; see the module comment.
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        // Checkpoints run on their own thread (see `checkpoint.rs`).
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        // Only a bound: the checkpointer truncates the WAL once idle.
        conn.pragma_update(None, "journal_size_limit", checkpoint::JOURNAL_SIZE_LIMIT)?;
        tune(&conn)?;
        migrate(&mut conn)?;
        let (kick, kicked) = mpsc::sync_channel(1);
        let writer = Writer::start(conn, Some(kick))?;
        let at = path.to_path_buf();
        std::thread::Builder::new()
            .name("sqlite-checkpoint".into())
            .spawn(move || checkpoint::checkpointer(at, kicked))
            .map_err(|e| StoreError::Task(e.to_string()))?;
        Ok(SqliteStore {
            writer,
            hub: Arc::new(Hub::default()),
            path: Some(path.to_path_buf()),
        })
    }

    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        let mut conn = Connection::open_in_memory()?;
        migrate(&mut conn)?;
        Ok(SqliteStore {
            writer: Writer::start(conn, None)?,
            hub: Arc::new(Hub::default()),
            path: None,
        })
    }

    async fn load(&self, run_id: &str) -> Result<Option<StoredRun>, StoreError> {
        let id = run_id.to_string();
        self.writer.call(move |c| load_full(c, &id)).await
    }
}

/// A run, its version and last event number, and every reply stored for it.
fn load_full(c: &Connection, id: &str) -> Result<Option<StoredRun>, StoreError> {
    let row = c
        .prepare_cached("SELECT body, version, last_seq FROM runs WHERE run_id = ?1")?
        .query_row([id], |r| {
            Ok((body::unpack(r.get_ref(0)?), r.get(1)?, r.get(2)?))
        })
        .optional()?;
    let Some((body, version, last_seq)) = row else {
        return Ok(None);
    };
    let run: Run = serde_json::from_str(&body?)?;
    let replies = c
        .prepare_cached("SELECT idem_key, endpoint, status, body FROM replies WHERE run_id = ?1")?
        .query_map([id], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                super::Reply {
                    status: r.get(2)?,
                    body: r.get(3)?,
                },
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(StoredRun {
        run,
        replies,
        version,
        last_seq,
    }))
}

/// Writes `row` with its body already packed (`body::pack`, done on the
/// caller's thread): an update of the stored run, or else an insert.
fn write_row(c: &Connection, row: &RunRow, packed: &[u8]) -> Result<(), rusqlite::Error> {
    let touched = minute(row.updated_at);
    let updated = c.prepare_cached(UPDATE_RUN)?.execute(params![
        row.run_id,
        packed,
        row.updated_at,
        row.version,
        row.last_seq
    ])?;
    if updated == 1 {
        c.prepare_cached(UPDATE_RUN_INDEXED)?
            .execute(params![row.run_id, row.active, touched])?;
        return Ok(());
    }
    c.prepare_cached(UPSERT_RUN)?.execute(params![
        row.run_id,
        packed,
        row.updated_at,
        row.active,
        row.owner,
        row.version,
        row.last_seq,
        touched
    ])?;
    Ok(())
}

/// Appends a turn's events; called after `write_row`, so the run's row (and
/// its number) exists.
fn write_events(
    c: &Connection,
    run_id: &str,
    events: &[StoredEvent],
) -> Result<(), rusqlite::Error> {
    if events.is_empty() {
        return Ok(());
    }
    let run_no: i64 = c
        .prepare_cached(RUN_NO)?
        .query_row([run_id], |r| r.get(0))?;
    let mut stmt = c.prepare_cached(INSERT_EVENT)?;
    for e in events {
        stmt.execute(params![run_no, e.seq, e.json])?;
    }
    Ok(())
}

/// A turn on SQLite: the caller holds this process's lock on the run, and
/// no other process writes the file, so there is nothing more to hold.
struct SqliteTurn {
    writer: Writer,
    hub: Arc<Hub>,
}

#[async_trait]
impl TurnLock for SqliteTurn {
    async fn commit(self: Box<Self>, write: RunWrite) -> Result<(), StoreError> {
        let RunWrite { row, reply, events } = write;
        let run_id = row.run_id.clone();
        let packed = body::pack(&row.body);
        // The events come back from the database thread for the hub.
        let events = self
            .writer
            .call(move |c| {
                write_row(c, &row, &packed)?;
                if let Some((key, endpoint, r)) = reply {
                    c.prepare_cached(INSERT_REPLY)?.execute(params![
                        row.run_id,
                        key,
                        endpoint,
                        r.status,
                        r.body,
                        row.updated_at
                    ])?;
                }
                write_events(c, &row.run_id, &events)?;
                Ok(events)
            })
            .await?;
        self.hub.publish(&run_id, &events);
        Ok(())
    }

    async fn release(self: Box<Self>) {}
}

#[async_trait]
impl RunStore for SqliteStore {
    fn engine(&self) -> Engine {
        Engine::Sqlite
    }

    fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }

    async fn health(&self) -> StoreHealth {
        let t = std::time::Instant::now();
        let r = self
            .writer
            .call(|c| Ok(c.query_row("SELECT 1", [], |r| r.get::<_, i64>(0))?))
            .await;
        let mut details = serde_json::Map::new();
        details.insert(
            "file".into(),
            self.path
                .as_ref()
                .map_or(serde_json::Value::Null, |p| p.display().to_string().into()),
        );
        StoreHealth {
            engine: "sqlite",
            status: if r.is_ok() { "ok" } else { "unavailable" },
            error: r.as_ref().err().map(ToString::to_string),
            latency_ms: r.is_ok().then(|| t.elapsed().as_secs_f64() * 1e3),
            details,
        }
    }

    async fn create_run(
        &self,
        row: RunRow,
        limit: u32,
        active_since_ms: u64,
        events: Vec<StoredEvent>,
    ) -> Result<Result<(), u64>, StoreError> {
        let run_id = row.run_id.clone();
        let packed = body::pack(&row.body);
        let created = self
            .writer
            .call(move |c| {
                if limit > 0 {
                    let n: i64 = c
                        .prepare_cached(COUNT_ACTIVE)?
                        .query_row(params![row.owner, active_since_ms as i64], |r| r.get(0))?;
                    let n = u64::try_from(n).unwrap_or(0);
                    if n >= u64::from(limit) {
                        return Ok(Err(n));
                    }
                }
                write_row(c, &row, &packed)?;
                write_events(c, &row.run_id, &events)?;
                Ok(Ok(events))
            })
            .await?;
        Ok(created.map(|events| self.hub.publish(&run_id, &events)))
    }

    async fn turn(&self, run_id: &str, cached: Option<i64>) -> Result<Option<Turn>, StoreError> {
        let lock = || {
            Box::new(SqliteTurn {
                writer: self.writer.clone(),
                hub: self.hub.clone(),
            })
        };
        // This process is the only writer: a cached copy is the stored run.
        if cached.is_some() {
            return Ok(Some(Turn::new(None, lock())));
        }
        Ok(self.load(run_id).await?.map(|s| Turn::new(Some(s), lock())))
    }

    async fn read(
        &self,
        run_id: &str,
        cached: Option<i64>,
    ) -> Result<Option<Option<StoredRun>>, StoreError> {
        if cached.is_some() {
            return Ok(Some(None));
        }
        Ok(self.load(run_id).await?.map(Some))
    }

    async fn events(
        &self,
        run_id: &str,
        after: i64,
        limit: usize,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        let id = run_id.to_string();
        self.writer
            .call(move |c| {
                let rows = c
                    .prepare_cached(
                        "SELECT seq, body FROM run_events
                         WHERE run_no = (SELECT run_no FROM runs WHERE run_id = ?1) AND seq > ?2
                         ORDER BY seq LIMIT ?3",
                    )?
                    .query_map(params![id, after, limit as i64], |r| {
                        Ok(StoredEvent {
                            seq: r.get(0)?,
                            json: r.get(1)?,
                        })
                    })?
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(rows)
            })
            .await
    }

    async fn expire(&self, cutoff_ms: u64) -> Result<usize, StoreError> {
        self.writer
            .call(move |c| {
                let cutoff = cutoff_ms as i64;
                // `touched` narrows through its index (V3); `updated_at`
                // is the exact rule.
                let expired = "FROM runs WHERE touched <= ?1 / 60000 AND updated_at < ?1";
                for (child, key) in [("replies", "run_id"), ("run_events", "run_no")] {
                    c.prepare_cached(&format!(
                        "DELETE FROM {child} WHERE {key} IN (SELECT {key} {expired})"
                    ))?
                    .execute([cutoff])?;
                }
                Ok(c.prepare_cached(&format!("DELETE {expired}"))?
                    .execute([cutoff])?)
            })
            .await
    }

    async fn browse_turn(&self, id: &str) -> Result<super::BrowseTurn, StoreError> {
        browse::turn(&self.writer, id).await
    }

    async fn create_browse(&self, id: &str, body: String, now_ms: u64) -> Result<(), StoreError> {
        browse::save(&self.writer, id.to_string(), body, now_ms).await
    }

    async fn delete_browse(&self, id: &str) -> Result<(), StoreError> {
        browse::delete(&self.writer, id.to_string()).await
    }

    async fn expire_browse(&self, cutoff_ms: u64) -> Result<usize, StoreError> {
        browse::expire(&self.writer, cutoff_ms).await
    }
}
