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
use std::time::Duration;
use tokio::sync::oneshot;

/// At most this many jobs share one transaction.
const MAX_BATCH: usize = 256;
/// Ask the checkpointer to run after this many commits.
const CHECKPOINT_EVERY_COMMITS: u64 = 256;

/// What a job hands back to the database thread: called once the batch's
/// transaction has committed (Ok) or failed (Err, with the reason).
type Finish = Box<dyn FnOnce(Result<(), &str>) + Send>;
/// Called with the connection inside the batch's open transaction, or with
/// why there is none (then the job must not touch the database).
type Job = Box<dyn FnOnce(Result<&Connection, &str>) -> Finish + Send>;

/// Handle to the database thread. Cheap to clone.
#[derive(Clone)]
pub(crate) struct Writer {
    jobs: mpsc::Sender<Job>,
}

impl Writer {
    /// Starts the thread that owns `conn` (already configured and migrated).
    pub(crate) fn start(
        conn: Connection,
        kick: Option<mpsc::SyncSender<()>>,
    ) -> Result<Writer, StoreError> {
        conn.busy_handler(Some(writer_busy))?;
        conn.set_prepared_statement_cache_capacity(32);
        let (jobs, queue) = mpsc::channel::<Job>();
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
            .send(job)
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

/// Run a parameterless statement through the statement cache.
pub(crate) fn exec(c: &Connection, sql: &str) -> Result<(), rusqlite::Error> {
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
