//! PostgreSQL: the store of several replicas behind a load balancer
//! (docs/server.md "Running several replicas").
//!
//! - **Serialised turns.** A change to a run is written only against the
//!   version it was decided on. A replica whose cached copy it wrote last
//!   itself (and has heard of no later event from another replica:
//!   `Shared::fresh`, fed by `listen.rs`) decides without a lock and writes
//!   by compare-and-set, one statement that is also its commit: **one round
//!   trip per step** (`turn.rs`, optimistic turns). Otherwise (a copy
//!   missing or stale, or the compare-and-set lost) the turn starts by
//!   locking the run's row (`SELECT … FOR UPDATE`, pipelined with `BEGIN`;
//!   the body and replies are read only when the caller's version is not
//!   the stored one) and ends with the commit of the change, its
//!   idempotency reply and its events: two round trips, and a second turn
//!   on the run, on any replica, waits for the row. A replica that dies
//!   mid-turn loses its connection, and PostgreSQL rolls back and releases
//!   the row at once.
//! - **Rows laid out for cheap updates** (migration V2): the body compressed
//!   inline, no indexed column changing at a step (so updates are HOT), no
//!   foreign-key triggers on the events and replies a step inserts.
//! - **Announcements** of committed events go to other replicas through
//!   `NOTIFY` (run id and sequence number only; `listen.rs`).
//! - **Shared rates** for the guard's per-caller limit (`rate.rs`).
//!
//! Driver: tokio-postgres with a deadpool pool (chosen over sqlx by
//! measurement, bench/pg-driver-probe); migrations: refinery
//! (`migrations/postgres`), run under an advisory lock so that replicas
//! starting together migrate once.

mod listen;
mod rate;
mod turn;
mod warm;

use super::{
    BrowseTurn, Engine, Reply, RunRow, RunStore, StoreError, StoreHealth, StoredEvent, StoredRun,
    Turn, TurnTiming,
};
use crate::hub::Hub;
use async_trait::async_trait;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use sentience_agent::Run;
use sentience_guard::RateLimit;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, watch};
use tokio_postgres::types::ToSql;
use tokio_postgres::{NoTls, Row};

/// One statement parameter (arrays of them outlive pipelined queries).
pub(crate) type Param<'a> = &'a (dyn ToSql + Sync);

mod embedded {
    refinery::embed_migrations!("migrations/postgres");
}

/// Any fixed number: the advisory lock replicas take to migrate one at a time.
const MIGRATION_LOCK: i64 = 0x5e17_1e4c_e000_0001;

const READ_RUN: &str =
    "SELECT version, last_seq, CASE WHEN version <> $2 THEN body END FROM runs WHERE run_id = $1";
/// A run's replies, only when the caller's copy (version $2) is stale.
const REPLIES_IF_STALE: &str = "SELECT idem_key, endpoint, status, body FROM replies
     WHERE run_id = $1 AND EXISTS (SELECT 1 FROM runs WHERE run_id = $1 AND version <> $2)";
/// `idle_minute` is written with `updated_at` (migration V3: no longer a
/// generated column, which PostgreSQL re-planned at every execution).
const INSERT_RUN: &str =
    "INSERT INTO runs (run_id, body, updated_at, active, owner, version, last_seq, idle_minute)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $3::bigint / 60000)";
const INSERT_EVENTS: &str = "INSERT INTO run_events (run_id, seq, body)
     SELECT $1, s, b FROM unnest($2::bigint[], $3::text[]) AS t(s, b)";
/// Starts of one owner are serialised (quota), those of others are not.
const OWNER_LOCK: &str = "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))";
/// `idle_minute` (V2 migration) narrows by index, `updated_at` decides.
const COUNT_ACTIVE: &str = "SELECT count(*) FROM runs
     WHERE owner = $1 AND active AND idle_minute >= $2::bigint / 60000 AND updated_at >= $2";
/// Runs idle since before $1, with their replies and events (no foreign
/// keys: V2 migration). A run whose turn is in progress keeps its row lock,
/// and is re-checked (and kept) once the turn committed.
/// A stream's events after the last one it sent.
const EVENTS_AFTER: &str =
    "SELECT seq, body FROM run_events WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3";
/// Statements of the requests that come often (`warm.rs` prepares them on
/// each connection as it opens).
const STATEMENTS: [&str; 7] = [
    READ_RUN,
    REPLIES_IF_STALE,
    INSERT_RUN,
    INSERT_EVENTS,
    OWNER_LOCK,
    COUNT_ACTIVE,
    EVENTS_AFTER,
];
const EXPIRE_RUNS: &str = "WITH gone AS (
       DELETE FROM runs WHERE idle_minute <= $1::bigint / 60000 AND updated_at < $1 RETURNING run_id
     ), replies_gone AS (
       DELETE FROM replies WHERE run_id IN (SELECT run_id FROM gone)
     ), events_gone AS (
       DELETE FROM run_events WHERE run_id IN (SELECT run_id FROM gone)
     )
     SELECT count(*) FROM gone";

/// How long opening the store waits for the event listener's first LISTEN.
const LISTEN_WAIT: Duration = Duration::from_secs(10);

/// How to reach the database.
#[derive(Debug, Clone)]
pub struct PgOptions {
    /// Connections per replica. A turn holds one while its policy decides
    /// (milliseconds with the built-in scorer, seconds with an LLM).
    pub pool_size: usize,
    /// Waiting longer than this for a free connection fails the request.
    pub wait_timeout: Duration,
}

impl Default for PgOptions {
    fn default() -> Self {
        PgOptions {
            pool_size: 32,
            wait_timeout: Duration::from_secs(10),
        }
    }
}

/// What a committed turn needs to announce its events.
pub(crate) struct Shared {
    hub: Arc<Hub>,
    notify: mpsc::UnboundedSender<(String, i64)>,
    /// Runs this replica wrote last, as far as it has heard: run id →
    /// (version, last event number) it committed. A turn on a cached copy
    /// of that version skips the row lock (`turn.rs`, optimistic turns);
    /// another replica's announcement of a later event removes the entry.
    /// Only a hint: the write checks the version.
    fresh: Mutex<HashMap<String, (i64, i64)>>,
    /// How turns went since start (`/health`, `store.turns`): the measure
    /// of how often replicas behind a balancer without stickiness find
    /// their copy stale.
    counts: TurnCounts,
}

/// Turns taken without a lock, under the row lock, and optimistic turns
/// whose compare-and-set lost (redone under the lock).
#[derive(Default)]
pub(crate) struct TurnCounts {
    optimistic: AtomicU64,
    locked: AtomicU64,
    conflicts: AtomicU64,
}

impl TurnCounts {
    fn json(&self) -> serde_json::Value {
        let n = |a: &AtomicU64| a.load(Ordering::Relaxed);
        serde_json::json!({
            "optimistic": n(&self.optimistic),
            "locked": n(&self.locked),
            "conflicts": n(&self.conflicts),
        })
    }
}

/// Entries of `Shared::fresh` at most; past it the map starts again empty
/// (forgetting only makes turns take the row lock).
const FRESH_MAX: usize = 65_536;

impl Shared {
    /// This replica committed `events` of `run_id`: to its own streams
    /// (from memory), and to the other replicas' (a notification).
    pub(crate) fn committed(&self, run_id: &str, events: &[StoredEvent]) {
        if let Some(last) = events.last() {
            self.hub.publish(run_id, events);
            let _ = self.notify.send((run_id.to_string(), last.seq));
        }
    }

    fn fresh_map(&self) -> std::sync::MutexGuard<'_, HashMap<String, (i64, i64)>> {
        self.fresh.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// This replica committed version `version` of a run.
    pub(crate) fn wrote(&self, run_id: &str, version: i64, last_seq: i64) {
        let mut m = self.fresh_map();
        if m.len() >= FRESH_MAX && !m.contains_key(run_id) {
            m.clear();
        }
        m.insert(run_id.to_string(), (version, last_seq));
    }

    /// Whether the copy of version `version` is, as far as this replica
    /// has heard, the stored one.
    pub(crate) fn is_fresh(&self, run_id: &str, version: i64) -> bool {
        self.fresh_map()
            .get(run_id)
            .is_some_and(|&(v, _)| v == version)
    }

    pub(crate) fn lost_compare_and_set(&self) {
        self.counts.conflicts.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn forget_all(&self) {
        self.fresh_map().clear();
    }

    pub(crate) fn forget(&self, run_id: &str) {
        self.fresh_map().remove(run_id);
    }

    /// Some replica committed event `seq` of a run (every replica hears
    /// every announcement, its own too): later than this replica's last
    /// write means another replica wrote since.
    pub(crate) fn heard(&self, run_id: &str, seq: i64) {
        let mut m = self.fresh_map();
        if m.get(run_id).is_some_and(|&(_, mine)| seq > mine) {
            m.remove(run_id);
        }
    }
}

pub struct PgStore {
    pool: Pool,
    shared: Arc<Shared>,
    listener: watch::Receiver<listen::Listener>,
    tasks: Vec<tokio::task::AbortHandle>,
}

impl Drop for PgStore {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

pub(crate) fn pool_error(e: impl std::fmt::Display) -> StoreError {
    StoreError::Pool(e.to_string())
}

/// A run row as read: version, last event number, and the body when stale.
fn stored(row: &Row, replies: &[Row]) -> Result<(i64, i64, Option<StoredRun>), StoreError> {
    let version: i64 = row.try_get(0)?;
    let last_seq: i64 = row.try_get(1)?;
    let body: Option<String> = row.try_get(2)?;
    let stale = match body {
        None => None,
        Some(b) => {
            let run: Run = serde_json::from_str(&b)?;
            let replies = replies
                .iter()
                .map(|r| {
                    Ok((
                        r.try_get(0)?,
                        r.try_get(1)?,
                        Reply {
                            status: u16::try_from(r.try_get::<_, i32>(2)?).unwrap_or(500),
                            body: r.try_get(3)?,
                        },
                    ))
                })
                .collect::<Result<Vec<_>, tokio_postgres::Error>>()?;
            Some(StoredRun {
                run,
                replies,
                version,
                last_seq,
            })
        }
    };
    Ok((version, last_seq, stale))
}

impl PgStore {
    pub async fn connect(url: &str, options: PgOptions) -> Result<PgStore, StoreError> {
        let mut config: tokio_postgres::Config = url
            .parse()
            .map_err(|e| StoreError::Config(format!("invalid database URL: {e}")))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        migrate(&config).await?;
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(options.pool_size.max(1))
            .wait_timeout(Some(options.wait_timeout))
            // The most recently used connection first: under light load a
            // few warm backends do the work instead of every backend of the
            // pool waking in turn (fewer context switches and cold caches
            // on the database's cores).
            .queue_mode(deadpool_postgres::QueueMode::Lifo)
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .post_create(warm::prepare_on_create())
            .build()
            .map_err(pool_error)?;
        // Every connection now, not in the first requests' time; and fail
        // now, not at the first request, when the database is unusable.
        warm::open(&pool, options.pool_size.max(1)).await?;
        let hub = Arc::new(Hub::default());
        let (notify, queue) = mpsc::unbounded_channel();
        let (state, mut listener) = watch::channel(listen::Listener::Connecting);
        let shared = Arc::new(Shared {
            hub,
            notify,
            fresh: Mutex::new(HashMap::new()),
            counts: TurnCounts::default(),
        });
        let tasks = vec![
            tokio::spawn(listen::listener(config.clone(), shared.clone(), state)).abort_handle(),
            tokio::spawn(listen::notifier(config, queue)).abort_handle(),
        ];
        // Serve only once other replicas' commits are heard: a stream opened
        // on a replica whose listener is still connecting would otherwise
        // see them only at the listener's poke (issue 24: under load that
        // took seconds after the replica said it was listening). A database
        // slower than this still gets a replica that serves, and says so.
        let heard = listener.wait_for(|s| *s == listen::Listener::Listening);
        if !matches!(tokio::time::timeout(LISTEN_WAIT, heard).await, Ok(Ok(_))) {
            tracing::warn!(
                waited_ms = LISTEN_WAIT.as_millis() as u64,
                "not yet listening for other replicas' events; streams catch up once it is"
            );
        }
        Ok(PgStore {
            pool,
            shared,
            listener,
            tasks,
        })
    }

    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool.get().await.map_err(pool_error)
    }
}

/// Applies the migrations not yet applied, one replica at a time.
async fn migrate(config: &tokio_postgres::Config) -> Result<(), StoreError> {
    let (mut client, conn) = config.connect(NoTls).await?;
    let driver = tokio::spawn(conn);
    client
        .execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    let r = embedded::migrations::runner()
        .set_abort_divergent(true)
        .run_async(&mut client)
        .await;
    let _ = client
        .execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK])
        .await;
    drop(client);
    let _ = driver.await;
    r?;
    Ok(())
}

#[async_trait]
impl RunStore for PgStore {
    fn engine(&self) -> Engine {
        Engine::Postgres
    }

    fn hub(&self) -> &Arc<Hub> {
        &self.shared.hub
    }

    async fn health(&self) -> StoreHealth {
        let t = std::time::Instant::now();
        let r: Result<(), StoreError> = async {
            let c = self.client().await?;
            c.simple_query("SELECT 1").await?;
            Ok(())
        }
        .await;
        let latency = t.elapsed().as_secs_f64() * 1e3;
        let s = self.pool.status();
        let mut details = serde_json::Map::new();
        details.insert(
            "pool".into(),
            serde_json::json!({"max": s.max_size, "open": s.size, "idle": s.available, "waiting": s.waiting}),
        );
        details.insert("turns".into(), self.shared.counts.json());
        details.insert("listener".into(), self.listener.borrow().as_str().into());
        StoreHealth {
            engine: "postgres",
            status: if r.is_ok() { "ok" } else { "unavailable" },
            error: r.as_ref().err().map(ToString::to_string),
            latency_ms: r.is_ok().then_some(latency),
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
        let c = self.client().await?;
        let insert = c.prepare_cached(INSERT_RUN).await?;
        let add_events = c.prepare_cached(INSERT_EVENTS).await?;
        if limit > 0 {
            let owner = row.owner.clone().unwrap_or_default();
            let lock = c.prepare_cached(OWNER_LOCK).await?;
            let count = c.prepare_cached(COUNT_ACTIVE).await?;
            let since = active_since_ms as i64;
            let by: [Param<'_>; 1] = [&owner];
            let counted: [Param<'_>; 2] = [&owner, &since];
            let (b, locked, n) = tokio::join!(
                c.batch_execute("BEGIN"),
                c.execute(&lock, &by),
                c.query_one(&count, &counted)
            );
            let n = match (b, locked, n) {
                (Ok(()), Ok(_), Ok(n)) => n.try_get::<_, i64>(0),
                (Err(e), ..) | (_, Err(e), _) | (.., Err(e)) => Err(e),
            };
            let n = match n {
                Ok(n) => u64::try_from(n).unwrap_or(0),
                Err(e) => {
                    turn::discard(c);
                    return Err(e.into());
                }
            };
            if n >= u64::from(limit) {
                c.batch_execute("ROLLBACK").await?;
                return Ok(Err(n));
            }
        }
        let seqs: Vec<i64> = events.iter().map(|e| e.seq).collect();
        let bodies: Vec<&str> = events.iter().map(|e| e.json.as_str()).collect();
        // Without a quota, BEGIN goes out with the writes: one round trip.
        let begin = futures_util::future::OptionFuture::from(
            (limit == 0).then(|| c.batch_execute("BEGIN")),
        );
        let run: [Param<'_>; 7] = [
            &row.run_id,
            &row.body,
            &row.updated_at,
            &row.active,
            &row.owner,
            &row.version,
            &row.last_seq,
        ];
        let numbered: [Param<'_>; 3] = [&row.run_id, &seqs, &bodies];
        let (b, x, y, e) = tokio::join!(
            begin,
            c.execute(&insert, &run),
            c.execute(&add_events, &numbered),
            c.batch_execute("COMMIT")
        );
        // A failed statement turns the COMMIT into a rollback.
        b.transpose()?;
        x?;
        y?;
        e?;
        self.shared.wrote(&row.run_id, row.version, row.last_seq);
        self.shared.committed(&row.run_id, &events);
        Ok(Ok(()))
    }

    async fn turn(&self, run_id: &str, cached: Option<i64>) -> Result<Option<Turn>, StoreError> {
        if let Some(v) = cached.filter(|&v| self.shared.is_fresh(run_id, v)) {
            self.shared
                .counts
                .optimistic
                .fetch_add(1, Ordering::Relaxed);
            let t = Instant::now();
            let c = self.client().await?;
            let took = TurnTiming {
                acquire: t.elapsed(),
                begin: Duration::ZERO,
            };
            return Ok(Some(
                turn::optimistic(c, self.shared.clone(), v).timed(took),
            ));
        }
        self.turn_locked(run_id, cached).await
    }

    async fn turn_locked(
        &self,
        run_id: &str,
        cached: Option<i64>,
    ) -> Result<Option<Turn>, StoreError> {
        self.shared.counts.locked.fetch_add(1, Ordering::Relaxed);
        let t = Instant::now();
        let c = self.client().await?;
        let acquire = t.elapsed();
        let turn = turn::begin(c, self.shared.clone(), run_id, cached).await?;
        let took = TurnTiming {
            acquire,
            begin: t.elapsed() - acquire,
        };
        Ok(turn.map(|t| t.timed(took)))
    }

    async fn read(
        &self,
        run_id: &str,
        cached: Option<i64>,
    ) -> Result<Option<Option<StoredRun>>, StoreError> {
        let c = self.client().await?;
        let read = c.prepare_cached(READ_RUN).await?;
        let replies = c.prepare_cached(REPLIES_IF_STALE).await?;
        let v = cached.unwrap_or(-1);
        // One snapshot for the run and its replies, in one round trip.
        let params: [Param<'_>; 2] = [&run_id, &v];
        let (b, row, reps, e) = tokio::join!(
            c.batch_execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"),
            c.query_opt(&read, &params),
            c.query(&replies, &params),
            c.batch_execute("COMMIT")
        );
        b?;
        e?;
        match row? {
            None => Ok(None),
            Some(row) => Ok(Some(stored(&row, &reps?)?.2)),
        }
    }

    async fn events(
        &self,
        run_id: &str,
        after: i64,
        limit: usize,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        let c = self.client().await?;
        let q = c.prepare_cached(EVENTS_AFTER).await?;
        let rows = c.query(&q, &[&run_id, &after, &(limit as i64)]).await?;
        rows.iter()
            .map(|r| {
                Ok(StoredEvent {
                    seq: r.try_get(0)?,
                    json: r.try_get(1)?,
                })
            })
            .collect()
    }

    async fn expire(&self, cutoff_ms: u64) -> Result<usize, StoreError> {
        let c = self.client().await?;
        let n: i64 = c
            .query_one(EXPIRE_RUNS, &[&(cutoff_ms as i64)])
            .await?
            .try_get(0)?;
        rate::forget_idle(&c).await?;
        Ok(n as usize)
    }

    async fn browse_turn(&self, id: &str) -> Result<BrowseTurn, StoreError> {
        turn::browse(self.client().await?, id).await
    }

    async fn create_browse(&self, id: &str, body: String, now_ms: u64) -> Result<(), StoreError> {
        let c = self.client().await?;
        c.execute(
            "INSERT INTO browse_sessions (session_id, body, updated_at) VALUES ($1, $2, $3)",
            &[&id, &body, &(now_ms as i64)],
        )
        .await?;
        Ok(())
    }

    async fn delete_browse(&self, id: &str) -> Result<(), StoreError> {
        let c = self.client().await?;
        c.execute("DELETE FROM browse_sessions WHERE session_id = $1", &[&id])
            .await?;
        Ok(())
    }

    async fn expire_browse(&self, cutoff_ms: u64) -> Result<usize, StoreError> {
        let c = self.client().await?;
        let n = c
            .execute(
                "DELETE FROM browse_sessions WHERE updated_at < $1",
                &[&(cutoff_ms as i64)],
            )
            .await?;
        Ok(n as usize)
    }

    async fn rate(
        &self,
        key: &str,
        rate: RateLimit,
    ) -> Option<Result<Result<(), Duration>, StoreError>> {
        Some(match self.client().await {
            Ok(c) => rate::check(&c, key, rate).await,
            Err(e) => Err(e),
        })
    }

    async fn close(&self) {
        for t in &self.tasks {
            t.abort();
        }
        self.pool.close();
    }
}
