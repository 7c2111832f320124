//! A turn on PostgreSQL: a transaction on one pooled connection that holds
//! the run's row lock from `begin` to `commit` (or rollback). Statements of
//! one phase are pipelined: tokio-postgres sends a query when its future is
//! first polled, so `join!` puts `BEGIN` and the lock, or the writes and
//! `COMMIT`, on the wire together and waits for all answers once.
//!
//! A turn dropped without `commit` or `release` (a request cancelled while
//! its policy decided) rolls back in a task of its own before its
//! connection goes back to the pool; a connection whose state is unknown
//! after an error is closed instead (PostgreSQL then rolls back).

use super::{stored, Param, Shared, REPLIES_IF_STALE};
use crate::store::{BrowseLock, BrowseTurn, RunWrite, StoreError, Turn, TurnLock};
use async_trait::async_trait;
use deadpool_postgres::Object;
use std::sync::Arc;
const LOCK_RUN: &str = "SELECT version, last_seq, CASE WHEN version <> $2 THEN body END
     FROM runs WHERE run_id = $1 FOR UPDATE";
// A turn's statements are built from these parts (`macro_rules!`, since
// `concat!` takes literals only). A turn with an idempotency key writes its
// reply in the same statement; a turn without one (the CLI's `sentience
// run`, the bench) uses a statement without the reply's part: PostgreSQL
// initialises every modifying part of a statement at each execution
// (`ExecInitModifyTable`, the table's and its index's locks, `ON CONFLICT`'s
// arbiter), whether or not it writes a row (docs/benchmarks.md "What a
// PostgreSQL step costs").
macro_rules! update_run {
    ($extra:literal) => {
        concat!(
            "UPDATE runs SET body = $2, updated_at = $3, active = $4, version = $5, last_seq = $6,
       idle_minute = $3::bigint / 60000 WHERE run_id = $1",
            $extra
        )
    };
}
macro_rules! insert_events {
    ($extra:literal) => {
        concat!(
            "INSERT INTO run_events (run_id, seq, body)
       SELECT $1, s, b FROM unnest($7::bigint[], $8::text[]) AS t(s, b)",
            $extra
        )
    };
}
macro_rules! upsert_reply {
    ($extra:literal) => {
        concat!(
            "INSERT INTO replies (run_id, idem_key, endpoint, status, body, created_at)
       SELECT $1, $9::text, $10::text, $11::integer, $12::text, $3",
            $extra,
            "
       ON CONFLICT (run_id, idem_key, endpoint) DO UPDATE SET status = excluded.status,
       body = excluded.body, created_at = excluded.created_at"
        )
    };
}

/// A turn's whole change in one statement (one parse-free execution and one
/// answer instead of one per table): the run's row, its events (none: an
/// empty array) and the reply for an idempotency key. Its `COMMIT` follows
/// in the same round trip.
const WRITE_TURN: &str = concat!(
    "WITH run AS (",
    update_run!(""),
    "), events AS (",
    insert_events!(""),
    "), reply AS (",
    upsert_reply!(""),
    ") SELECT 1"
);
/// [`WRITE_TURN`] without a reply to store.
const WRITE_TURN_NO_REPLY: &str =
    concat!("WITH run AS (", update_run!(""), ") ", insert_events!(""));

/// An optimistic turn's whole change in one statement, committed on its own
/// (no `BEGIN`/`COMMIT`: one round trip): the run's row only if its stored
/// version is still the one the change was decided on (`$13`), and its
/// events and reply only if the row was written. Answers one row (written)
/// or none (another replica changed the run: nothing was written); not
/// `count(*)`, whose aggregate PostgreSQL set up at every execution (1.3 %
/// of its CPU per step, docs/benchmarks.md issue-24z).
const WRITE_TURN_IF_VERSION: &str = concat!(
    "WITH run AS (",
    update_run!(" AND version = $13 RETURNING 1"),
    "), events AS (",
    insert_events!(" WHERE EXISTS (SELECT 1 FROM run)"),
    "), reply AS (",
    upsert_reply!(" WHERE EXISTS (SELECT 1 FROM run)"),
    ") SELECT 1 FROM run"
);
/// [`WRITE_TURN_IF_VERSION`] without a reply to store (the expected
/// version is `$9`).
const WRITE_TURN_IF_VERSION_NO_REPLY: &str = concat!(
    "WITH run AS (",
    update_run!(" AND version = $9 RETURNING 1"),
    "), events AS (",
    insert_events!(" WHERE EXISTS (SELECT 1 FROM run)"),
    ") SELECT 1 FROM run"
);

/// Close a connection whose transaction state is unknown (it never goes
/// back to the pool; the server rolls back what was open).
pub(super) fn discard(c: Object) {
    drop(Object::take(c));
}

/// Roll back in the background, then return the connection to the pool.
fn rollback_later(c: Object) {
    match tokio::runtime::Handle::try_current() {
        Ok(rt) => {
            rt.spawn(async move {
                if c.batch_execute("ROLLBACK").await.is_err() {
                    discard(c);
                }
            });
        }
        Err(_) => discard(c),
    }
}

/// Starts a turn: `BEGIN`, lock the row, read the body and replies if the
/// caller's copy (version `cached`) is stale. `None`: no such run.
pub(super) async fn begin(
    c: Object,
    shared: Arc<Shared>,
    run_id: &str,
    cached: Option<i64>,
) -> Result<Option<Turn>, StoreError> {
    let lock = c.prepare_cached(LOCK_RUN).await?;
    let replies = c.prepare_cached(REPLIES_IF_STALE).await?;
    let v = cached.unwrap_or(-1);
    // The replies query runs after the lock is granted, so it sees the
    // version the lock read.
    let params: [Param<'_>; 2] = [&run_id, &v];
    let (b, row, reps) = tokio::join!(
        c.batch_execute("BEGIN"),
        c.query_opt(&lock, &params),
        c.query(&replies, &params)
    );
    let parsed = match (b, row, reps) {
        (Ok(()), Ok(Some(row)), Ok(reps)) => stored(&row, &reps).map(Some),
        (Ok(()), Ok(None), Ok(_)) => Ok(None),
        (Err(e), ..) | (_, Err(e), _) | (.., Err(e)) => Err(e.into()),
    };
    let (_, _, stale) = match parsed {
        Ok(Some(p)) => p,
        Ok(None) => {
            c.batch_execute("ROLLBACK").await?;
            return Ok(None);
        }
        Err(e) => {
            discard(c);
            return Err(e);
        }
    };
    Ok(Some(Turn::new(
        stale,
        Box::new(PgTurn {
            conn: Some(c),
            shared,
        }),
    )))
}

struct PgTurn {
    /// `None` once committed or released.
    conn: Option<Object>,
    shared: Arc<Shared>,
}

impl Drop for PgTurn {
    fn drop(&mut self) {
        if let Some(c) = self.conn.take() {
            rollback_later(c);
        }
    }
}

/// The values of a turn's write, in the order of `WRITE_TURN`'s
/// parameters (`WRITE_TURN_IF_VERSION` adds the expected version; the
/// statements without a reply leave out `$9`–`$12`).
struct WriteArgs<'a> {
    w: &'a RunWrite,
    seqs: Vec<i64>,
    bodies: Vec<&'a str>,
    key: Option<&'a str>,
    endpoint: Option<&'static str>,
    status: Option<i32>,
    body: Option<&'a str>,
}

impl<'a> WriteArgs<'a> {
    fn of(w: &'a RunWrite) -> WriteArgs<'a> {
        let (key, endpoint, status, body) = match &w.reply {
            Some((key, endpoint, r)) => (
                Some(key.as_str()),
                Some(*endpoint),
                Some(i32::from(r.status)),
                Some(r.body.as_str()),
            ),
            None => (None, None, None, None),
        };
        WriteArgs {
            w,
            seqs: w.events.iter().map(|e| e.seq).collect(),
            bodies: w.events.iter().map(|e| e.json.as_str()).collect(),
            key,
            endpoint,
            status,
            body,
        }
    }

    /// The statement for this write, with (`compare`) or without the
    /// version check, and its parameters in order.
    fn statement<'p>(&'p self, compare: Option<&'p i64>) -> (&'static str, Vec<Param<'p>>) {
        let row = &self.w.row;
        let mut params: Vec<Param<'p>> = vec![
            &row.run_id,
            &row.body,
            &row.updated_at,
            &row.active,
            &row.version,
            &row.last_seq,
            &self.seqs,
            &self.bodies,
        ];
        let with_reply = self.key.is_some();
        if with_reply {
            params.extend([
                &self.key as Param<'p>,
                &self.endpoint,
                &self.status,
                &self.body,
            ]);
        }
        let sql = match (compare, with_reply) {
            (None, true) => WRITE_TURN,
            (None, false) => WRITE_TURN_NO_REPLY,
            (Some(expected), reply) => {
                params.push(expected);
                if reply {
                    WRITE_TURN_IF_VERSION
                } else {
                    WRITE_TURN_IF_VERSION_NO_REPLY
                }
            }
        };
        (sql, params)
    }
}

/// The writes of a turn and its `COMMIT`, in one round trip.
async fn write(c: &Object, w: &RunWrite) -> Result<(), StoreError> {
    let args = WriteArgs::of(w);
    let (sql, params) = args.statement(None);
    let statement = c.prepare_cached(sql).await?;
    let (a, e) = tokio::join!(c.execute(&statement, &params), c.batch_execute("COMMIT"));
    // A failed statement turns the COMMIT into a rollback: report it.
    a?;
    e?;
    Ok(())
}

#[async_trait]
impl TurnLock for PgTurn {
    async fn commit(mut self: Box<Self>, w: RunWrite) -> Result<(), StoreError> {
        let Some(c) = self.conn.take() else {
            return Err(StoreError::Task("turn already ended".into()));
        };
        match write(&c, &w).await {
            Ok(()) => {
                drop(c);
                self.shared
                    .wrote(&w.row.run_id, w.row.version, w.row.last_seq);
                self.shared.committed(&w.row.run_id, &w.events);
                Ok(())
            }
            Err(e) => {
                // The COMMIT may or may not have happened: this connection
                // is not reused, and the caller drops its cached copy.
                discard(c);
                self.shared.forget(&w.row.run_id);
                Err(e)
            }
        }
    }

    async fn release(mut self: Box<Self>) {
        if let Some(c) = self.conn.take() {
            if c.batch_execute("ROLLBACK").await.is_err() {
                discard(c);
            }
        }
    }
}

/// A turn on a cached copy this replica wrote last (`Shared::fresh`):
/// no lock and no statement to start it; the change is written only if
/// the stored version is still `version` (compare-and-set, one round trip
/// that is also its commit). When another replica changed the run
/// meanwhile the commit fails with [`StoreError::Conflict`] and the caller
/// takes the turn again, under the row lock, with the stored run. Turns on
/// one run stay serialised: a change decided on an old version is never
/// written. The connection is taken with the turn, as for a locked turn,
/// so a replica decides at most a pool's worth of turns at once.
pub(super) fn optimistic(c: Object, shared: Arc<Shared>, version: i64) -> Turn {
    Turn::new(
        None,
        Box::new(Optimistic {
            conn: c,
            shared,
            version,
        }),
    )
}

struct Optimistic {
    conn: Object,
    shared: Arc<Shared>,
    version: i64,
}

#[async_trait]
impl TurnLock for Optimistic {
    async fn commit(self: Box<Self>, w: RunWrite) -> Result<(), StoreError> {
        let run_id = w.row.run_id.clone();
        let c = &self.conn;
        let r: Result<bool, StoreError> = async {
            let args = WriteArgs::of(&w);
            let (sql, params) = args.statement(Some(&self.version));
            let statement = c.prepare_cached(sql).await?;
            Ok(c.query_opt(&statement, &params).await?.is_some())
        }
        .await;
        match r {
            Ok(true) => {
                self.shared.wrote(&run_id, w.row.version, w.row.last_seq);
                self.shared.committed(&run_id, &w.events);
                Ok(())
            }
            Ok(false) => {
                self.shared.forget(&run_id);
                self.shared.lost_compare_and_set();
                Err(StoreError::Conflict)
            }
            Err(e) => {
                self.shared.forget(&run_id);
                Err(e)
            }
        }
    }

    async fn release(self: Box<Self>) {}

    fn may_conflict(&self) -> bool {
        true
    }
}

/// A browse conversation's row, locked for one message.
pub(super) async fn browse(c: Object, id: &str) -> Result<BrowseTurn, StoreError> {
    let lock = c
        .prepare_cached(
            "SELECT body, updated_at FROM browse_sessions WHERE session_id = $1 FOR UPDATE",
        )
        .await?;
    let params: [Param<'_>; 1] = [&id];
    let (b, row) = tokio::join!(c.batch_execute("BEGIN"), c.query_opt(&lock, &params));
    let row = match (b, row) {
        (Ok(()), Ok(row)) => row,
        (Err(e), _) | (_, Err(e)) => {
            discard(c);
            return Err(e.into());
        }
    };
    let stored = match row {
        None => None,
        Some(r) => Some((
            r.try_get::<_, String>(0)?,
            r.try_get::<_, i64>(1)?.max(0) as u64,
        )),
    };
    Ok(BrowseTurn::new(
        stored,
        Box::new(PgBrowse {
            conn: Some(c),
            id: id.to_string(),
        }),
    ))
}

struct PgBrowse {
    conn: Option<Object>,
    id: String,
}

impl Drop for PgBrowse {
    fn drop(&mut self) {
        if let Some(c) = self.conn.take() {
            rollback_later(c);
        }
    }
}

impl PgBrowse {
    async fn finish(&mut self, sql: &str, params: &[Param<'_>]) -> Result<(), StoreError> {
        let Some(c) = self.conn.take() else {
            return Err(StoreError::Task("browse turn already ended".into()));
        };
        let stmt = c.prepare_cached(sql).await?;
        let (a, e) = tokio::join!(c.execute(&stmt, params), c.batch_execute("COMMIT"));
        match (a, e) {
            (Ok(_), Ok(())) => Ok(()),
            (Err(x), _) | (_, Err(x)) => {
                discard(c);
                Err(x.into())
            }
        }
    }
}

#[async_trait]
impl BrowseLock for PgBrowse {
    async fn save(mut self: Box<Self>, body: String, now_ms: u64) -> Result<(), StoreError> {
        let id = self.id.clone();
        let at = now_ms as i64;
        self.finish(
            "INSERT INTO browse_sessions (session_id, body, updated_at) VALUES ($1, $2, $3)
             ON CONFLICT (session_id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at",
            &[&id, &body, &at],
        )
        .await
    }

    async fn delete(mut self: Box<Self>) -> Result<(), StoreError> {
        let id = self.id.clone();
        self.finish("DELETE FROM browse_sessions WHERE session_id = $1", &[&id])
            .await
    }

    async fn release(mut self: Box<Self>) {
        if let Some(c) = self.conn.take() {
            if c.batch_execute("ROLLBACK").await.is_err() {
                discard(c);
            }
        }
    }
}

/// The statements every turn prepares on its connection: prepared on each
/// connection as the pool opens it (`warm.rs`), not in a step's round trips.
pub(super) const STATEMENTS: [&str; 5] = [
    LOCK_RUN,
    WRITE_TURN,
    WRITE_TURN_NO_REPLY,
    WRITE_TURN_IF_VERSION,
    WRITE_TURN_IF_VERSION_NO_REPLY,
];
