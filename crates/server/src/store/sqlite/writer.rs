//! The SQLite database thread: one connection, owned by one thread, does all
//! the reading and writing. Requests queue jobs to it; it takes every job
//! that is waiting (up to `MAX_BATCH`) and runs them in one transaction
//! (group commit), each job inside its own savepoint so that one failing job
//! does not undo the others. Nobody is answered before that transaction has
//! committed. So 50 concurrent steps share one commit instead of paying for
//! 50, and no async worker thread ever blocks on SQLite.

use super::StoreError;
use rusqlite::Connection;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// At most this many jobs share one transaction.
const MAX_BATCH: usize = 256;
/// Ask the checkpointer to run once the WAL holds this many frames (32 MB
/// of 4 KB pages; it used to be asked every 256 commits, whatever their
/// size). Each checkpoint that copies every frame makes the next commit
/// start the WAL over, and that commit syncs the new WAL header: an fsync
/// on this thread, which every queued request waits for (3–5 ms on this
/// VM's disk, tens under other I/O), so restarts are spaced by size.
pub(crate) const CHECKPOINT_AT_FRAMES: i32 = 8_192;

thread_local! {
    /// Frames in the WAL after this thread's last commit (SQLite's WAL hook
    /// runs on the committing thread, and each store has its own thread).
    static WAL_FRAMES: std::cell::Cell<i32> = const { std::cell::Cell::new(0) };
}

fn on_wal_commit(_: &rusqlite::hooks::Wal, frames: std::ffi::c_int) -> rusqlite::Result<()> {
    WAL_FRAMES.with(|f| f.set(frames));
    Ok(())
}

/// What a job hands back to the database thread: called once the batch's
/// transaction has committed (Ok) or failed (Err, with the reason).
type Finish = Box<dyn FnOnce(Result<(), &str>) + Send>;
/// Called with the connection inside the batch's open transaction, or with
/// why there is none (then the job must not touch the database).
type Job = Box<dyn FnOnce(Result<&Connection, &str>) -> Finish + Send>;

/// Handle to the database thread. Cheap to clone.
#[derive(Clone)]
pub(crate) struct Writer {
    jobs: mpsc::Sender<(Instant, Job)>,
}

impl Writer {
    /// Starts the thread that owns `conn` (already configured and migrated).
    pub(crate) fn start(
        conn: Connection,
        kick: Option<mpsc::SyncSender<()>>,
    ) -> Result<Writer, StoreError> {
        conn.busy_handler(Some(writer_busy))?;
        // Replaces SQLite's automatic checkpoint (already off): see
        // `CHECKPOINT_AT_FRAMES`.
        conn.wal_hook(Some(on_wal_commit));
        conn.set_prepared_statement_cache_capacity(32);
        let (jobs, queue) = mpsc::channel::<(Instant, Job)>();
        std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || writer(conn, queue, kick))
            .map_err(|e| StoreError::Task(e.to_string()))?;
        Ok(Writer { jobs })
    }

    /// Run `f` on the database thread, inside the next batch's transaction
    /// (in a savepoint of its own), and answer once that batch committed.
    pub(crate) async fn call<T: Send + 'static>(
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
            .send((Instant::now(), job))
            .map_err(|_| StoreError::Task("database thread stopped".into()))?;
        rx.await
            .map_err(|_| StoreError::Task("database thread stopped".into()))?
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

/// How long this thread has waited for a CPU while runnable (ns), from
/// Linux's schedstat (tracing only: tells CPU contention from I/O).
fn cpu_wait_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().nth(1)?.parse().ok()
}

/// Run a parameterless statement through the statement cache.
pub(crate) fn exec(c: &Connection, sql: &str) -> Result<(), rusqlite::Error> {
    c.prepare_cached(sql)?.execute([]).map(|_| ())
}

/// The database thread: batches of jobs, one transaction per batch.
fn writer(
    conn: Connection,
    queue: mpsc::Receiver<(Instant, Job)>,
    kick: Option<mpsc::SyncSender<()>>,
) {
    let mut batch: Vec<Job> = Vec::with_capacity(MAX_BATCH);
    let mut finishes: Vec<Finish> = Vec::with_capacity(MAX_BATCH);
    // Ends when every `Store` handle is gone.
    while let Ok((oldest, first)) = queue.recv() {
        let picked = Instant::now();
        let waited0 = tracing::enabled!(tracing::Level::TRACE).then(cpu_wait_ns);
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok((_, j)) => batch.push(j),
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
        let ran = Instant::now();
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
        // Where a slow answer waited (docs/benchmarks.md "Agent server").
        // Read only when tracing: opening the /proc file at every batch cost
        // ~1 % of the server's CPU at 500 paced runs (perf).
        let runnable_us = waited0
            .flatten()
            .and_then(|a| Some(cpu_wait_ns()?.saturating_sub(a) / 1000))
            .unwrap_or(0);
        tracing::trace!(
            jobs = finishes.len(),
            runnable_us,
            wal_frames = WAL_FRAMES.with(std::cell::Cell::get),
            queued_us = picked.duration_since(oldest).as_micros() as u64,
            run_us = ran.duration_since(picked).as_micros() as u64,
            commit_us = ran.elapsed().as_micros() as u64,
            "database batch"
        );
        for f in finishes.drain(..) {
            f(outcome.as_ref().map(|_| ()).map_err(String::as_str));
        }
        if WAL_FRAMES.with(std::cell::Cell::get) >= CHECKPOINT_AT_FRAMES {
            if let Some(k) = &kick {
                // Full means a checkpoint is already pending: fine.
                let _ = k.try_send(());
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    async fn failing(w: &Writer) -> Result<(), StoreError> {
        w.call(|c| {
            c.execute("INSERT INTO t VALUES (1)", [])?;
            Err(StoreError::Task("refused".into()))
        })
        .await
    }

    async fn ok(w: &Writer) -> Result<usize, StoreError> {
        w.call(|c| Ok(c.execute("INSERT INTO t VALUES (2)", [])?))
            .await
    }

    fn count(c: &Connection) -> Result<i64, StoreError> {
        Ok(c.query_row("SELECT COUNT(*) FROM t", [], |r| r.get(0))?)
    }

    /// A job that fails after writing leaves nothing behind, whether it ran
    /// alone (no savepoint: the batch rolls back) or beside others (its
    /// savepoint rolls back, the others commit).
    #[tokio::test]
    async fn a_failing_job_leaves_nothing_alone_or_in_a_batch() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE t (x INTEGER)").unwrap();
        let w = Writer::start(conn, None).unwrap();
        assert!(failing(&w).await.is_err());
        assert_eq!(w.call(count).await.unwrap(), 0);
        // Several at once: most land in one batch.
        let (a, b, c, d) = tokio::join!(ok(&w), failing(&w), ok(&w), failing(&w));
        assert!(a.is_ok() && b.is_err() && c.is_ok() && d.is_err());
        assert_eq!(w.call(count).await.unwrap(), 2);
        // And the thread goes on committing.
        ok(&w).await.unwrap();
        assert_eq!(w.call(count).await.unwrap(), 3);
    }
}
