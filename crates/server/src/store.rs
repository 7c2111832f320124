//! Durable runs: an embedded SQLite database (a file under the data
//! directory, or in memory for tests). Every state change is committed
//! before the response is sent, so a server killed mid-run and restarted
//! on the same file continues every run where it was. Stored replies make a
//! retried request with the same idempotency key answer what the first one
//! answered instead of advancing the run twice.
//!
//! One connection, owned by one database thread, does all the reading and
//! writing. Requests queue jobs to it; it takes every job that is waiting
//! (up to `MAX_BATCH`) and runs them in one transaction (group commit), each
//! job inside its own savepoint so that one failing job does not undo the
//! others. Nobody is answered before that transaction has committed. So 50
//! concurrent steps share one commit instead of paying for 50, and no async
//! worker thread ever blocks on SQLite.
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
//!
//! Checkpoints (copying the WAL back into the database file, with the
//! fsyncs NORMAL does do) run on a separate thread and connection in
//! PASSIVE mode, which never blocks the writer: with SQLite's automatic
//! checkpoint the commit that crossed 1000 WAL pages would do that work,
//! and every request queued behind it would wait tens of milliseconds.

#[path = "store_browse.rs"]
mod browse;

use rusqlite::{params, Connection, OpenFlags, OptionalExtension};
use sentience_agent::Run;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;
use tokio::sync::oneshot;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Db(#[from] rusqlite::Error),
    #[error("stored run is corrupt: {0}")]
    Corrupt(#[from] serde_json::Error),
    #[error("database task failed: {0}")]
    Task(String),
    /// The transaction this job was batched into did not commit.
    #[error("database commit failed: {0}")]
    Commit(String),
}

/// A stored response for an idempotency key.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub status: u16,
    pub body: String,
}

/// A stored reply with its key: (idempotency key, endpoint, reply).
pub type KeyedReply = (String, String, Reply);

/// A run as stored: its JSON and the replies stored for it.
pub struct StoredRun {
    pub run: Run,
    pub replies: Vec<KeyedReply>,
}

/// At most this many jobs share one transaction.
const MAX_BATCH: usize = 256;
/// Ask the checkpointer to run after this many commits...
const CHECKPOINT_EVERY_COMMITS: u64 = 256;
/// ...and at least this often while anything was written.
const CHECKPOINT_PERIOD: Duration = Duration::from_secs(1);
/// The WAL starts over from its beginning only when a checkpoint has copied
/// every frame and the writer has not appended during it. A checkpoint takes
/// two fsyncs (milliseconds), so under steady load most end with a few new
/// frames behind them. Past this many frames (16 MB of 4 KB pages) the
/// checkpointer therefore tries again at once, up to `RESET_TRIES` times:
/// each try only copies the frames of the last few milliseconds, and the
/// first that fits in a pause between two commits lets the WAL start over.
const WAL_FRAMES_SOFT_LIMIT: i64 = 4_096;
const RESET_TRIES: u32 = 20;
/// A writer that never pauses (a saturating benchmark) leaves no such gap:
/// when every try failed and the WAL holds more than this many frames
/// (64 MB), a blocking checkpoint resets it, stalling writes for its fsyncs
/// (tens of ms), about once per 4000 back-to-back steps.
const WAL_FRAMES_HARD_LIMIT: i64 = 16_384;

/// What a job hands back to the database thread: called once the batch's
/// transaction has committed (Ok) or failed (Err, with the reason).
type Finish = Box<dyn FnOnce(Result<(), &str>) + Send>;
/// Called with the connection inside the batch's open transaction, or with
/// why there is none (then the job must not touch the database).
type Job = Box<dyn FnOnce(Result<&Connection, &str>) -> Finish + Send>;

/// Handle to the database thread. Cheap to clone.
#[derive(Clone)]
pub struct Store {
    jobs: mpsc::Sender<Job>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    body TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    owner TEXT,
    active INTEGER NOT NULL DEFAULT 0
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
);
CREATE TABLE IF NOT EXISTS browse_sessions (
    session_id TEXT PRIMARY KEY,
    body TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS browse_sessions_updated_at ON browse_sessions(updated_at);";

/// Databases written before quotas (docs/security.md) lack the two columns
/// that count a caller's running runs; they are added on open.
const MIGRATE_OWNER: &str = "
ALTER TABLE runs ADD COLUMN owner TEXT;
ALTER TABLE runs ADD COLUMN active INTEGER NOT NULL DEFAULT 0;";
const OWNER_INDEX: &str =
    "CREATE INDEX IF NOT EXISTS runs_owner_active ON runs(owner, active, updated_at)";

/// `owner` is written when the run is created and kept by later saves.
const UPSERT_RUN: &str =
    "INSERT INTO runs (run_id, body, updated_at, active, owner) VALUES (?1, ?2, ?3, ?4, ?5)
     ON CONFLICT(run_id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at,
     active = excluded.active";
const COUNT_ACTIVE: &str =
    "SELECT COUNT(*) FROM runs WHERE owner = ?1 AND active = 1 AND updated_at >= ?2";
const INSERT_REPLY: &str =
    "INSERT OR REPLACE INTO replies (run_id, idem_key, endpoint, status, body, created_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

impl Store {
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // Durable against a killed process; see the module comment.
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        // Checkpoints run on their own thread (see `checkpointer`).
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        // Keep the WAL file from staying large after a burst.
        conn.pragma_update(None, "journal_size_limit", 16 * 1024 * 1024)?;
        let (kick, kicked) = mpsc::sync_channel(1);
        let store = Store::start(conn, Some(kick))?;
        let path = path.to_path_buf();
        std::thread::Builder::new()
            .name("sqlite-checkpoint".into())
            .spawn(move || checkpointer(path, kicked))
            .map_err(|e| StoreError::Task(e.to_string()))?;
        Ok(store)
    }

    pub fn in_memory() -> Result<Store, StoreError> {
        Store::start(Connection::open_in_memory()?, None)
    }

    fn start(conn: Connection, kick: Option<mpsc::SyncSender<()>>) -> Result<Store, StoreError> {
        conn.busy_handler(Some(writer_busy))?;
        conn.execute_batch(SCHEMA)?;
        let has_owner = conn
            .prepare("SELECT 1 FROM pragma_table_info('runs') WHERE name = 'owner'")?
            .exists([])?;
        if !has_owner {
            conn.execute_batch(MIGRATE_OWNER)?;
        }
        conn.execute_batch(OWNER_INDEX)?;
        conn.set_prepared_statement_cache_capacity(32);
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || writer(conn, queue, kick))
            .map_err(|e| StoreError::Task(e.to_string()))?;
        Ok(Store { jobs })
    }

    /// Run `f` on the database thread, inside the next batch's transaction
    /// (in a savepoint of its own), and answer once that batch committed.
    async fn call<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move |c: Result<&Connection, &str>| {
            // A savepoint of its own (statements cached: no SQL parsing per
            // job), so a failing job undoes only its own writes.
            let r =
                match c {
                    Err(why) => Err(StoreError::Commit(why.to_string())),
                    Ok(c) => exec(c, "SAVEPOINT job")
                        .map_err(StoreError::from)
                        .and_then(|()| match f(c) {
                            Ok(v) => {
                                exec(c, "RELEASE job")?;
                                Ok(v)
                            }
                            Err(e) => {
                                let _ = exec(c, "ROLLBACK TO job")
                                    .and_then(|()| exec(c, "RELEASE job"));
                                Err(e)
                            }
                        }),
                };
            Box::new(move |committed: Result<(), &str>| {
                let r = match (r, committed) {
                    (Err(e), _) => Err(e),
                    (Ok(_), Err(why)) => Err(StoreError::Commit(why.to_string())),
                    (Ok(v), Ok(())) => Ok(v),
                };
                // The caller may have gone away (request cancelled).
                let _ = tx.send(r);
            })
        });
        self.jobs
            .send(job)
            .map_err(|_| StoreError::Task("database thread stopped".into()))?;
        rx.await
            .map_err(|_| StoreError::Task("database thread stopped".into()))?
    }

    /// A run and every reply stored for it (one round trip), for the cache.
    pub async fn load_full(&self, run_id: &str) -> Result<Option<StoredRun>, StoreError> {
        let id = run_id.to_string();
        self.call(move |c| {
            let body: Option<String> = c
                .prepare_cached("SELECT body FROM runs WHERE run_id = ?1")?
                .query_row([&id], |r| r.get(0))
                .optional()?;
            let Some(body) = body else {
                return Ok(None);
            };
            let run: Run = serde_json::from_str(&body)?;
            let mut stmt = c.prepare_cached(
                "SELECT idem_key, endpoint, status, body FROM replies WHERE run_id = ?1",
            )?;
            let replies = stmt
                .query_map([&id], |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        Reply {
                            status: r.get(2)?,
                            body: r.get(3)?,
                        },
                    ))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Some(StoredRun { run, replies }))
        })
        .await
    }

    pub async fn load(&self, run_id: &str) -> Result<Option<Run>, StoreError> {
        Ok(self.load_full(run_id).await?.map(|s| s.run))
    }

    /// Save a run, and with it the reply for an idempotency key, atomically.
    pub async fn save(
        &self,
        run: &Run,
        reply: Option<(String, &'static str, Reply)>,
    ) -> Result<(), StoreError> {
        let row = Row::of(run, None)?;
        self.call(move |c| row.write(c, reply)).await
    }

    /// Create a run for `owner` unless that owner already has `limit` (> 0)
    /// active runs used since `active_since_ms`: then `Ok(Err(count))` and
    /// nothing is written. Counting and inserting happen in one
    /// transaction, so two starts at once cannot both take the last place.
    pub async fn create_run(
        &self,
        run: &Run,
        owner: String,
        limit: u32,
        active_since_ms: u64,
    ) -> Result<Result<(), u64>, StoreError> {
        let row = Row::of(run, Some(owner))?;
        self.call(move |c| {
            if limit > 0 {
                let n: i64 = c
                    .prepare_cached(COUNT_ACTIVE)?
                    .query_row(params![row.owner, active_since_ms as i64], |r| r.get(0))?;
                let n = u64::try_from(n).unwrap_or(0);
                if n >= u64::from(limit) {
                    return Ok(Err(n));
                }
            }
            row.write(c, None).map(Ok)
        })
        .await
    }
}

/// A run's row, serialised on the caller's thread so that the database
/// thread only does database work.
struct Row {
    run_id: String,
    body: String,
    updated: i64,
    active: bool,
    owner: Option<String>,
}

impl Row {
    fn of(run: &Run, owner: Option<String>) -> Result<Row, StoreError> {
        Ok(Row {
            run_id: run.run_id.clone(),
            body: serde_json::to_string(run)?,
            updated: run.updated_at as i64,
            active: !run.status.is_terminal(),
            owner,
        })
    }

    fn write(
        self,
        c: &Connection,
        reply: Option<(String, &'static str, Reply)>,
    ) -> Result<(), StoreError> {
        let Row {
            run_id,
            body,
            updated,
            active,
            owner,
        } = self;
        {
            c.prepare_cached(UPSERT_RUN)?
                .execute(params![run_id, body, updated, active, owner])?;
            if let Some((key, endpoint, r)) = reply {
                c.prepare_cached(INSERT_REPLY)?
                    .execute(params![run_id, key, endpoint, r.status, r.body, updated])?;
            }
            Ok(())
        }
    }
}

impl Store {
    /// Delete runs (and their replies) idle since before `cutoff_ms`.
    pub async fn expire(&self, cutoff_ms: u64) -> Result<usize, StoreError> {
        self.call(move |c| {
            c.prepare_cached(
                "DELETE FROM replies WHERE run_id IN (SELECT run_id FROM runs WHERE updated_at < ?1)",
            )?
            .execute([cutoff_ms as i64])?;
            Ok(c.prepare_cached("DELETE FROM runs WHERE updated_at < ?1")?
                .execute([cutoff_ms as i64])?)
        })
        .await
    }
}

/// The writer's busy handler: only the rare blocking checkpoint holds the
/// write lock against it, so retry every 250 µs (SQLite's own handler backs
/// off up to 100 ms between tries, which would stretch every such pause),
/// for at most 5 s.
fn writer_busy(tries: i32) -> bool {
    std::thread::sleep(Duration::from_micros(250));
    tries < 20_000
}

/// Run a parameterless statement through the statement cache.
fn exec(c: &Connection, sql: &str) -> Result<(), rusqlite::Error> {
    c.prepare_cached(sql)?.execute([]).map(|_| ())
}

/// The database thread: batches of jobs, one transaction per batch.
fn writer(conn: Connection, queue: mpsc::Receiver<Job>, kick: Option<mpsc::SyncSender<()>>) {
    let mut batch: Vec<Job> = Vec::with_capacity(MAX_BATCH);
    let mut finishes: Vec<Finish> = Vec::with_capacity(MAX_BATCH);
    let mut commits: u64 = 0;
    // Ends when every `Store` handle is gone.
    while let Ok(first) = queue.recv() {
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(j) => batch.push(j),
                Err(_) => break,
            }
        }
        // IMMEDIATE: take the write lock now rather than upgrading later.
        let began = exec(&conn, "BEGIN IMMEDIATE");
        for job in batch.drain(..) {
            // An I/O or full-disk error inside a job may roll back the whole
            // transaction: then the rest must not run (outside it, each
            // would commit on its own while the batch reports failure).
            let open = match &began {
                Ok(()) if !conn.is_autocommit() => Ok(&conn),
                Ok(()) => Err("transaction was rolled back"),
                Err(_) => Err("could not begin a transaction"),
            };
            finishes.push(job(open));
        }
        let outcome: Result<(), String> = match began {
            Err(e) => Err(e.to_string()),
            // Rolled back by a failing job: nothing of the batch committed.
            Ok(()) if conn.is_autocommit() => Err("transaction was rolled back".into()),
            Ok(()) => exec(&conn, "COMMIT").map_err(|e| e.to_string()),
        };
        if outcome.is_err() && !conn.is_autocommit() {
            let _ = exec(&conn, "ROLLBACK");
        }
        if let Err(e) = &outcome {
            tracing::error!(error = %e, jobs = finishes.len(), "database batch failed");
        }
        for f in finishes.drain(..) {
            f(outcome.as_ref().map(|_| ()).map_err(String::as_str));
        }
        commits += 1;
        if commits % CHECKPOINT_EVERY_COMMITS == 0 {
            if let Some(k) = &kick {
                // Full means a checkpoint is already pending: fine.
                let _ = k.try_send(());
            }
        }
    }
}

/// Copies the WAL back into the database file in the background.
fn checkpointer(path: PathBuf, kicked: mpsc::Receiver<()>) {
    let open = || -> Result<Connection, rusqlite::Error> {
        let c = Connection::open_with_flags(
            &path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        c.busy_timeout(Duration::from_secs(5))?;
        // Checkpoints sync the WAL and then the database file, as the
        // writer's connection would.
        c.pragma_update(None, "synchronous", "NORMAL")?;
        c.pragma_update(None, "journal_size_limit", 16 * 1024 * 1024)?;
        Ok(c)
    };
    let conn = match open() {
        Ok(c) => c,
        Err(e) => {
            tracing::warn!(error = %e, "no background checkpoints: the WAL is checkpointed when the server stops");
            return;
        }
    };
    loop {
        match kicked.recv_timeout(CHECKPOINT_PERIOD) {
            Ok(()) | Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        }
        let mut last_log = -1;
        for attempt in 0..=RESET_TRIES {
            let t = std::time::Instant::now();
            let r = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
                Ok((r.get::<_, i64>(1)?, r.get::<_, i64>(2)?))
            });
            tracing::debug!(?r, attempt, took = ?t.elapsed(), "passive checkpoint (WAL frames, checkpointed)");
            match r {
                // Small, or nothing appended during the checkpoint (then the
                // writer's next transaction starts the WAL over): done.
                Ok((log, _)) if log <= WAL_FRAMES_SOFT_LIMIT || log == last_log => break,
                // Large, and the writer appended meanwhile: try again at once.
                Ok((log, _)) if attempt < RESET_TRIES => last_log = log,
                Ok((log, _)) => {
                    if log > WAL_FRAMES_HARD_LIMIT {
                        // The writer never paused long enough: reset the WAL
                        // once, blocking writes, so it cannot grow without bound.
                        let t = std::time::Instant::now();
                        let r = conn.query_row("PRAGMA wal_checkpoint(RESTART)", [], |r| {
                            r.get::<_, i64>(0)
                        });
                        tracing::debug!(?r, took = ?t.elapsed(), "blocking checkpoint (busy)");
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, "checkpoint failed");
                    break;
                }
            }
        }
    }
}
