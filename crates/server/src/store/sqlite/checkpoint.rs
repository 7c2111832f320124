//! Checkpoints (copying the WAL back into the database file, with the
//! fsyncs `synchronous=NORMAL` does do) run on a separate thread and
//! connection in PASSIVE mode, which never blocks the writer: with SQLite's
//! automatic checkpoint the commit that crossed 1000 WAL pages would do that
//! work, and every request queued behind it would wait tens of milliseconds.

use rusqlite::{Connection, OpenFlags};
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

/// The checkpointer runs after every `CHECKPOINT_EVERY_COMMITS` commits of
/// the writer, and at least this often while anything was written.
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

/// Copies the WAL back into the database file in the background.
pub(crate) fn checkpointer(path: PathBuf, kicked: mpsc::Receiver<()>) {
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
