//! The run store: one trait (`RunStore`), two engines.
//!
//! - **SQLite** (`sqlite/`), the embedded default: one process owns the
//!   database file; one writer thread commits groups of changes. Its cached
//!   runs can only be changed by this process, so a turn on a cached run
//!   never reads the database.
//! - **PostgreSQL** (`postgres/`), for several replicas on one database
//!   (docs/server.md "Running several replicas"): a turn locks the run's row
//!   (`SELECT … FOR UPDATE`) in a transaction that ends with the change's
//!   commit, so turns on one run are serialised across processes; cached
//!   runs are checked against the stored version in that same round trip.
//!   A copy this replica wrote last skips the lock and is written by
//!   compare-and-set on the version instead; a lost compare-and-set is
//!   [`StoreError::Conflict`], and the caller redoes the turn.
//!
//! Both keep the same promises: every change is committed before it is
//! answered; a run's change, its idempotency reply and its stream events are
//! committed together; events are numbered 1, 2, … per run without gaps.
//! The same tests run against both (crates/server/tests, with
//! `SENTIENCE_TEST_DATABASE_URL` for PostgreSQL).

pub mod postgres;
pub mod sqlite;

use crate::hub::Hub;
use async_trait::async_trait;
use sentience_agent::Run;
use sentience_guard::RateLimit;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("database: {0}")]
    Postgres(#[from] tokio_postgres::Error),
    #[error("database connection pool: {0}")]
    Pool(String),
    #[error("database migration failed: {0}")]
    Migration(#[from] refinery::Error),
    #[error("stored data is corrupt: {0}")]
    Corrupt(#[from] serde_json::Error),
    #[error("database task failed: {0}")]
    Task(String),
    /// The transaction this change was part of did not commit.
    #[error("database commit failed: {0}")]
    Commit(String),
    #[error("{0}")]
    Config(String),
    /// The run changed (on another replica) since the caller's copy was
    /// read, so the change was not written: take the turn again (a fresh
    /// copy) and redo it. Only a turn taken without the row lock (PostgreSQL,
    /// a copy this replica wrote last) ends so.
    #[error("the run changed while this change was decided")]
    Conflict,
}

/// A stored response for an idempotency key.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub status: u16,
    pub body: String,
}

/// A stored reply with its key: (idempotency key, endpoint, reply).
pub type KeyedReply = (String, String, Reply);

/// A run as stored: its JSON, the replies stored for it, its version (bumped
/// by every committed change) and the number of its last stream event.
pub struct StoredRun {
    pub run: Run,
    pub replies: Vec<KeyedReply>,
    pub version: i64,
    pub last_seq: i64,
}

/// One event of a run's stream as stored: its number and its JSON text
/// (docs/server.md "The live run stream").
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEvent {
    pub seq: i64,
    pub json: String,
}

/// A run's row, serialised on the caller's thread so that the database
/// side only does database work.
#[derive(Debug, Clone)]
pub struct RunRow {
    pub run_id: String,
    pub body: String,
    pub updated_at: i64,
    /// Counts towards its owner's running runs (not terminal).
    pub active: bool,
    /// Written when the run is created and kept by later writes.
    pub owner: Option<String>,
    pub version: i64,
    pub last_seq: i64,
}

impl RunRow {
    pub fn of(run: &Run, version: i64, last_seq: i64) -> Result<RunRow, StoreError> {
        Ok(RunRow {
            run_id: run.run_id.clone(),
            body: serde_json::to_string(run)?,
            updated_at: run.updated_at as i64,
            active: !run.status.is_terminal(),
            owner: None,
            version,
            last_seq,
        })
    }
}

/// What a turn writes: the run's new row, the reply for an idempotency key
/// (key, endpoint, reply) and the turn's events, all in one transaction.
pub struct RunWrite {
    pub row: RunRow,
    pub reply: Option<(String, &'static str, Reply)>,
    pub events: Vec<StoredEvent>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Sqlite,
    Postgres,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::Sqlite => "sqlite",
            Engine::Postgres => "postgres",
        }
    }
}

/// The exclusive right to change one run, until `commit` or `release` (or
/// drop, which releases). On PostgreSQL it is the row lock of an open
/// transaction; on SQLite the caller's in-process lock is the whole of it.
pub struct Turn {
    /// The stored run, when the caller's cached copy was missing or stale
    /// (`None`: the cached copy is the stored run).
    pub stale: Option<StoredRun>,
    /// Where taking the turn waited (the step's trace).
    pub took: TurnTiming,
    lock: Box<dyn TurnLock>,
}

/// What taking a turn waited for, for the step's trace (docs/benchmarks.md
/// "Agent server"): a free connection of the pool (PostgreSQL), then the
/// round trip that starts a locked turn (`BEGIN`, the row lock, the run
/// read back when stale). Zero where there is no such phase.
#[derive(Debug, Clone, Copy, Default)]
pub struct TurnTiming {
    pub acquire: Duration,
    pub begin: Duration,
}

impl Turn {
    pub fn new(stale: Option<StoredRun>, lock: Box<dyn TurnLock>) -> Turn {
        Turn {
            stale,
            took: TurnTiming::default(),
            lock,
        }
    }

    /// The same turn, with where taking it waited.
    pub fn timed(mut self, took: TurnTiming) -> Turn {
        self.took = took;
        self
    }

    /// Write the change and commit; the lock ends with the commit.
    pub async fn commit(self, write: RunWrite) -> Result<(), StoreError> {
        self.lock.commit(write).await
    }

    /// End the turn without a change.
    pub async fn release(self) {
        self.lock.release().await
    }

    /// Whether `commit` may fail with [`StoreError::Conflict`] (then the
    /// caller redoes the change on a fresh turn, so it keeps its inputs).
    pub fn may_conflict(&self) -> bool {
        self.lock.may_conflict()
    }
}

#[async_trait]
pub trait TurnLock: Send {
    async fn commit(self: Box<Self>, write: RunWrite) -> Result<(), StoreError>;
    async fn release(self: Box<Self>);
    /// A turn taken without a lock, written by compare-and-set.
    fn may_conflict(&self) -> bool {
        false
    }
}

/// A browse conversation held for one message (docs/contracts/browse.md
/// §7): its stored JSON and when it was last used, if it exists.
pub struct BrowseTurn {
    pub stored: Option<(String, u64)>,
    lock: Box<dyn BrowseLock>,
}

impl BrowseTurn {
    pub fn new(stored: Option<(String, u64)>, lock: Box<dyn BrowseLock>) -> BrowseTurn {
        BrowseTurn { stored, lock }
    }

    pub async fn save(self, body: String, now_ms: u64) -> Result<(), StoreError> {
        self.lock.save(body, now_ms).await
    }

    pub async fn delete(self) -> Result<(), StoreError> {
        self.lock.delete().await
    }

    pub async fn release(self) {
        self.lock.release().await
    }
}

#[async_trait]
pub trait BrowseLock: Send {
    async fn save(self: Box<Self>, body: String, now_ms: u64) -> Result<(), StoreError>;
    async fn delete(self: Box<Self>) -> Result<(), StoreError>;
    async fn release(self: Box<Self>);
}

/// What `/health` reports about the store.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoreHealth {
    pub engine: &'static str,
    /// "ok", or "unavailable" (then `error` says why).
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Time of a trivial query through the store, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<f64>,
    /// Engine-specific facts (file, pool, listener).
    #[serde(flatten)]
    pub details: serde_json::Map<String, serde_json::Value>,
}

/// The operations the server needs from a database. Everything that
/// changes a run goes through a [`Turn`].
#[async_trait]
pub trait RunStore: Send + Sync {
    fn engine(&self) -> Engine;

    /// Where committed events are announced (in-process; PostgreSQL also
    /// relays other replicas' announcements into it).
    fn hub(&self) -> &Arc<Hub>;

    async fn health(&self) -> StoreHealth;

    /// Create a run unless its owner already has `limit` (> 0) active runs
    /// used since `active_since_ms`: then `Ok(Err(count))` and nothing is
    /// written. Counting and inserting are one transaction (and, on
    /// PostgreSQL, serialised per owner), so two starts at once, on any
    /// replicas, cannot both take the last place.
    async fn create_run(
        &self,
        row: RunRow,
        limit: u32,
        active_since_ms: u64,
        events: Vec<StoredEvent>,
    ) -> Result<Result<(), u64>, StoreError>;

    /// Take a run's turn (waiting for any other turn on it, on any
    /// replica). `cached`: the version of the caller's copy. `None`: no such run.
    async fn turn(&self, run_id: &str, cached: Option<i64>) -> Result<Option<Turn>, StoreError>;

    /// Like `turn`, but never a turn that [`Turn::may_conflict`]: for a
    /// change costly to decide twice (an LLM call), or one that ends
    /// without a write (an error) and must be decided on the stored run.
    async fn turn_locked(
        &self,
        run_id: &str,
        cached: Option<i64>,
    ) -> Result<Option<Turn>, StoreError> {
        self.turn(run_id, cached).await
    }

    /// The last committed state of a run, without taking its turn:
    /// `Some(None)` when the caller's copy (version `cached`) is current,
    /// `None` when there is no such run.
    async fn read(
        &self,
        run_id: &str,
        cached: Option<i64>,
    ) -> Result<Option<Option<StoredRun>>, StoreError>;

    /// A run's events numbered after `after`, in order, at most `limit`.
    async fn events(
        &self,
        run_id: &str,
        after: i64,
        limit: usize,
    ) -> Result<Vec<StoredEvent>, StoreError>;

    /// Delete runs (with their replies and events) idle since before `cutoff_ms`.
    async fn expire(&self, cutoff_ms: u64) -> Result<usize, StoreError>;

    /// Hold a browse conversation for one message (on PostgreSQL, its row
    /// lock: messages of one conversation are serialised across replicas).
    async fn browse_turn(&self, id: &str) -> Result<BrowseTurn, StoreError>;
    /// Store a new conversation.
    async fn create_browse(&self, id: &str, body: String, now_ms: u64) -> Result<(), StoreError>;
    async fn delete_browse(&self, id: &str) -> Result<(), StoreError>;
    /// Delete conversations idle since before `cutoff_ms`.
    async fn expire_browse(&self, cutoff_ms: u64) -> Result<usize, StoreError>;

    /// One request by `key` against a rate shared by every process using
    /// this database: `Ok(Err(wait))` when over. `None`: this engine keeps
    /// no shared rates (one process: the guard's own limiter is exact).
    async fn rate(
        &self,
        _key: &str,
        _rate: RateLimit,
    ) -> Option<Result<Result<(), Duration>, StoreError>> {
        None
    }

    /// Stop background work (listeners, pools) once requests have drained.
    async fn close(&self) {}
}

/// The store the server uses: either engine behind one handle. Cheap to clone.
#[derive(Clone)]
pub struct Store(Arc<dyn RunStore>);

impl std::ops::Deref for Store {
    type Target = dyn RunStore;
    fn deref(&self) -> &Self::Target {
        &*self.0
    }
}

impl Store {
    pub fn new(engine: Arc<dyn RunStore>) -> Store {
        Store(engine)
    }

    /// SQLite in a file (created if missing, migrated on open).
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Ok(Store(Arc::new(sqlite::SqliteStore::open(path)?)))
    }

    /// SQLite in memory (tests, demos): lost when the process ends.
    pub fn in_memory() -> Result<Store, StoreError> {
        Ok(Store(Arc::new(sqlite::SqliteStore::in_memory()?)))
    }

    /// PostgreSQL at `url` (`postgres://user:password@host:port/db`),
    /// migrated on connect.
    pub async fn connect(url: &str, options: postgres::PgOptions) -> Result<Store, StoreError> {
        Ok(Store(Arc::new(
            postgres::PgStore::connect(url, options).await?,
        )))
    }

    /// A run as stored (tests and tools).
    pub async fn load(&self, run_id: &str) -> Result<Option<Run>, StoreError> {
        Ok(self.read(run_id, None).await?.flatten().map(|s| s.run))
    }

    /// Create a run for `owner` with its first events (see
    /// [`RunStore::create_run`]): `Ok(Ok(last event number))`, or
    /// `Ok(Err(running runs))` when over the quota.
    pub async fn create(
        &self,
        run: &Run,
        owner: String,
        limit: u32,
        active_since_ms: u64,
    ) -> Result<Result<i64, u64>, StoreError> {
        let events = crate::events::number(run, 0, crate::events::created(run));
        let last_seq = events.len() as i64;
        let mut row = RunRow::of(run, 1, last_seq)?;
        row.owner = Some(owner);
        Ok(self
            .create_run(row, limit, active_since_ms, events)
            .await?
            .map(|()| last_seq))
    }
}
