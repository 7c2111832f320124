//! Commits shared by concurrent turns (docs/benchmarks.md "PostgreSQL:
//! turns that share a commit"). A compare-and-set turn (`turn.rs`,
//! `Optimistic`) holds no connection while it decides; its write goes to one
//! of 8 writer tasks, each with a connection of its own (not the
//! pool's), which takes every write waiting at that moment and sends them
//! in one round trip: `BEGIN`, each write's own statement (the one a turn
//! alone runs), `COMMIT`. So a burst of turns waits for one WAL flush per
//! group instead of queueing for the pool's connections, each held through
//! a flush of its own, and PostgreSQL's backend wakes once per group.
//!
//! Nothing is answered before its commit: each write's result is sent to
//! its turn only once the group's `COMMIT` answered. One write's statement
//! failing would roll the whole group back, so the group's writes are then
//! sent again, each committed on its own (the failure stays the failing
//! write's). A connection lost mid-commit leaves the outcome unknown: every
//! write of the group gets the error, as a turn alone would (the caller
//! drops its cached copy and the next turn reads the run as stored).
//!
//! Nothing in a group waits for a row lock: the write locks its run's row
//! with `SKIP LOCKED` (a row locked by another replica's turn counts as a
//! lost compare-and-set, redone under the lock), and two writes of one run
//! are never in flight at once (this process's lock on the run is held
//! until its write is answered). Earlier grouping in one statement over
//! every write's rows (`unnest`) read ~180 buffers per row under load
//! against 16 for the one-run statement, so each write keeps its own.

use super::{pool_error, Shared};
use crate::events;
use crate::store::{RunWrite, StoreError};
use deadpool_postgres::{Object, Pool};
use sentience_agent::time::now_ms;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot, Mutex};

/// An optimistic turn's whole change in one statement: the run's row only
/// if it is not locked by another transaction and its stored version is
/// still the one the change was decided on (`$13`), and its events and reply
/// only if the row was written. Answers 1 (written) or 0 (not: another
/// replica changed the run, or holds its row lock). Alone it is its own
/// commit; in a group, one of the group's.
pub(super) const WRITE_TURN_IF_VERSION: &str = "WITH target AS (
       SELECT run_id FROM runs WHERE run_id = $1 AND version = $13 FOR UPDATE SKIP LOCKED
     ), run AS (
       UPDATE runs SET body = $2, updated_at = $3, active = $4, version = $5, last_seq = $6
       WHERE run_id = (SELECT run_id FROM target) AND version = $13
       RETURNING 1
     ), events AS (
       INSERT INTO run_events (run_id, seq, body)
       SELECT $1, s, b FROM unnest($7::bigint[], $8::text[]) AS t(s, b)
       WHERE EXISTS (SELECT 1 FROM run)
     ), reply AS (
       INSERT INTO replies (run_id, idem_key, endpoint, status, body, created_at)
       SELECT $1, $9::text, $10::text, $11::integer, $12::text, $3
       WHERE $9::text IS NOT NULL AND EXISTS (SELECT 1 FROM run)
       ON CONFLICT (run_id, idem_key, endpoint) DO UPDATE SET status = excluded.status,
       body = excluded.body, created_at = excluded.created_at
     )
     SELECT count(*) FROM run";

/// Writer tasks (connections of their own): groups in flight at once. A
/// group's statements run one after another on one backend, so a group's
/// latency grows with its size: several smaller groups in flight (8 × 16)
/// measured better than few large ones (4 × 64: a commit's round trip p50
/// 214 ms under the bench's load).
pub(super) const WRITERS: usize = 8;
/// Writes in one group at most.
const GROUP_MAX: usize = 16;

/// One write waiting for its group: the change, the version it was
/// decided on, and where its outcome goes (written or not).
struct Job {
    write: RunWrite,
    expected: i64,
    done: oneshot::Sender<Result<bool, StoreError>>,
}

/// Commits and writes so far (`/health`, `store.writer`): writes per
/// commit is how much grouping saved.
#[derive(Default)]
pub(crate) struct GroupCounts {
    commits: AtomicU64,
    writes: AtomicU64,
}

impl GroupCounts {
    fn add(&self, commits: u64, writes: usize) {
        self.commits.fetch_add(commits, Ordering::Relaxed);
        self.writes.fetch_add(writes as u64, Ordering::Relaxed);
    }

    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "commits": self.commits.load(Ordering::Relaxed),
            "writes": self.writes.load(Ordering::Relaxed),
        })
    }
}

/// The way into the writer tasks.
pub(crate) struct GroupWriter {
    queue: mpsc::UnboundedSender<Job>,
}

impl GroupWriter {
    /// Starts the writer tasks on `pool` (one connection each); answers
    /// the writer and the tasks to abort on close.
    pub(super) fn start(
        pool: Pool,
        shared: Arc<Shared>,
    ) -> (GroupWriter, Vec<tokio::task::AbortHandle>) {
        let (queue, rx) = mpsc::unbounded_channel();
        let rx = Arc::new(Mutex::new(rx));
        let tasks = (0..WRITERS)
            .map(|_| tokio::spawn(writer(pool.clone(), rx.clone(), shared.clone())).abort_handle())
            .collect();
        (GroupWriter { queue }, tasks)
    }

    /// Writes `w` if the run is still at version `expected`, in the next
    /// group; answers once that group committed: `Ok(true)` written,
    /// `Ok(false)` not (the compare-and-set lost).
    pub(super) async fn write(&self, w: RunWrite, expected: i64) -> Result<bool, StoreError> {
        let (done, answer) = oneshot::channel();
        self.queue
            .send(Job {
                write: w,
                expected,
                done,
            })
            .map_err(|_| StoreError::Task("the database writer stopped".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Task("the database writer stopped".into()))?
    }
}

/// One writer task: takes every write waiting (up to `GROUP_MAX`), commits
/// them together, answers them, and starts again.
async fn writer(pool: Pool, rx: Arc<Mutex<mpsc::UnboundedReceiver<Job>>>, shared: Arc<Shared>) {
    loop {
        let mut group = {
            let mut rx = rx.lock().await;
            let Some(first) = rx.recv().await else {
                return;
            };
            let mut group = vec![first];
            while group.len() < GROUP_MAX {
                match rx.try_recv() {
                    Ok(j) => group.push(j),
                    Err(_) => break,
                }
            }
            group
        };
        let c = match pool.get().await {
            Ok(c) => c,
            Err(e) => {
                let e = pool_error(e);
                for j in group {
                    let _ = j.done.send(Err(StoreError::Pool(e.to_string())));
                }
                continue;
            }
        };
        // An event's `at` is when its commit is sent (docs/server.md "The
        // live run stream"), not when its turn decided: the wait for a group
        // is part of the commit.
        let at = now_ms();
        for j in &mut group {
            for e in &mut j.write.events {
                events::restamp(&mut e.json, at);
            }
        }
        let jobs: Vec<&Job> = group.iter().collect();
        let (outcomes, reusable) = commit_group(&c, &jobs, &shared.grouped).await;
        if reusable {
            drop(c);
        } else {
            super::turn::discard(c);
        }
        for (j, o) in group.into_iter().zip(outcomes) {
            let row = &j.write.row;
            match &o {
                // Announced here, as soon as committed: the run's streams
                // wake without waiting for the turn's task.
                Ok(true) => {
                    shared.wrote(&row.run_id, row.version, row.last_seq);
                    shared.committed(&row.run_id, &j.write.events);
                }
                Ok(false) => {
                    shared.forget(&row.run_id);
                    shared.lost_compare_and_set();
                }
                Err(_) => shared.forget(&row.run_id),
            }
            let _ = j.done.send(o);
        }
    }
}

/// Each write's outcome: written, not written (compare-and-set lost), or
/// the error that kept it from being known to be written; and whether the
/// connection may be used again (its transaction state is known).
async fn commit_group(
    c: &Object,
    group: &[&Job],
    counts: &GroupCounts,
) -> (Vec<Result<bool, StoreError>>, bool) {
    let statement = match c.prepare_cached(WRITE_TURN_IF_VERSION).await {
        Ok(s) => s,
        Err(e) => return (failed(group, &e.into()), false),
    };
    let args: Vec<_> = group
        .iter()
        .map(|j| super::turn::WriteArgs::of(&j.write))
        .collect();
    let params: Vec<_> = args
        .iter()
        .zip(group)
        .map(|(a, j)| a.params(&j.expected))
        .collect();
    if let [p] = &params[..] {
        // Alone: the statement is its own commit.
        let row = c.query_one(&statement, p).await;
        counts.add(1, 1);
        return (vec![written(row)], true);
    }
    let writes = params.iter().map(|p| c.query_one(&statement, p));
    let (b, rows, e) = tokio::join!(
        c.batch_execute("BEGIN"),
        futures_util::future::join_all(writes),
        c.batch_execute("COMMIT")
    );
    if let Err(e) = b.and(e) {
        // The commit's outcome is not known.
        return (failed(group, &e.into()), false);
    }
    let Some(bad) = rows.iter().position(Result::is_err) else {
        counts.add(1, group.len());
        return (rows.into_iter().map(written).collect(), true);
    };
    // A statement failed, so the COMMIT rolled the group back: nothing of
    // it was written (the statements after it were refused). The failing
    // write keeps its error; the others are committed again, together.
    let error = rows.into_iter().nth(bad).map_or(Ok(false), written);
    let rest: Vec<&Job> = group
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != bad)
        .map(|(_, j)| *j)
        .collect();
    let (mut outcomes, reusable) = Box::pin(commit_group(c, &rest, counts)).await;
    outcomes.insert(bad, error);
    (outcomes, reusable)
}

/// The same error for every write of a group whose commit is not known.
fn failed(group: &[&Job], e: &StoreError) -> Vec<Result<bool, StoreError>> {
    group
        .iter()
        .map(|_| Err(StoreError::Commit(e.to_string())))
        .collect()
}

fn written(row: Result<tokio_postgres::Row, tokio_postgres::Error>) -> Result<bool, StoreError> {
    Ok(row?.try_get::<_, i64>(0)? == 1)
}
