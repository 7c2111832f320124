//! Checkpoints (copying the WAL back into the database file, with the
//! fsyncs `synchronous=NORMAL` does do) run on a separate thread and
//! connection in PASSIVE mode, which never blocks the writer: with SQLite's
//! automatic checkpoint the commit that crossed 1000 WAL pages would do that
//! work, and every request queued behind it would wait tens of milliseconds.
//!
//! When: the writer asks once the WAL holds `writer::CHECKPOINT_AT_FRAMES`
//! (32 MB), and otherwise every `CHECKPOINT_PERIOD`. Each checkpoint that
//! copies every frame costs the writer one fsync when its next commit
//! starts the WAL over (the new header is synced: SQLite's guard against a
//! torn restart after a power cut), so they are spaced by size, not by
//! count of commits (docs/benchmarks.md "Agent server").

use super::writer::CHECKPOINT_AT_FRAMES;
use rusqlite::{Connection, OpenFlags};
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

/// The checkpointer runs at least this often while anything was written.
const CHECKPOINT_PERIOD: Duration = Duration::from_secs(2);
/// The WAL starts over from its beginning only when a checkpoint has copied
/// every frame and the writer has not appended during it. A checkpoint takes
/// two fsyncs (milliseconds), so under steady load most end with a few new
/// frames behind them. Past the writer's threshold the checkpointer
/// therefore tries again at once, up to `RESET_TRIES` times: each try only
/// copies the frames of the last few milliseconds, and the first that fits
/// in a pause between two commits lets the WAL start over.
const RESET_TRIES: u32 = 20;
/// After `RESET_TRIES` failed, the next series waits this long (the writer
/// asks again at its next commit; each try syncs two files).
const RETRY_PAUSE: Duration = Duration::from_millis(100);
/// A writer that never pauses (a saturating benchmark) leaves no such gap:
/// when every try failed and the WAL holds more than this many frames
/// (128 MB), a blocking checkpoint resets it, stalling writes for its fsyncs.
const WAL_FRAMES_HARD_LIMIT: i64 = 4 * CHECKPOINT_AT_FRAMES as i64;
/// The WAL file keeps its size when it starts over (rewriting pages already
/// in the page cache is cheaper than growing a file). Truncating it at the
/// restart (SQLite's `journal_size_limit`, 16 MB before) is done by the
/// writer's next commit: freeing 40 MB of cached pages took that commit
/// 2.5–4.5 ms of CPU at every restart. So the limit is the hard limit's
/// size, and the file is truncated here instead, once nothing was written
/// for two periods.
pub(crate) const JOURNAL_SIZE_LIMIT: i64 = WAL_FRAMES_HARD_LIMIT * 4096;

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
        c.pragma_update(None, "journal_size_limit", JOURNAL_SIZE_LIMIT)?;
        Ok(c)
    };
    let conn = match open() {
        Ok(c) => c,
        Err(e) => {
            tracing::warn!(error = %e, "no background checkpoints: the WAL is checkpointed when the server stops");
            return;
        }
    };
    // The WAL's frames after the last periodic checkpoint, if it was complete.
    let mut idle_since: Option<i64> = None;
    loop {
        let periodic = match kicked.recv_timeout(CHECKPOINT_PERIOD) {
            Ok(()) => false,
            Err(mpsc::RecvTimeoutError::Timeout) => true,
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        };
        let mut last_log = -1;
        let mut done = None;
        for attempt in 0..=RESET_TRIES {
            let t = std::time::Instant::now();
            let r = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
                Ok((r.get::<_, i64>(1)?, r.get::<_, i64>(2)?))
            });
            tracing::debug!(?r, attempt, took = ?t.elapsed(), "passive checkpoint (WAL frames, checkpointed)");
            match r {
                // Small, or nothing appended during the checkpoint (then the
                // writer's next transaction starts the WAL over): done.
                Ok((log, copied)) if log < i64::from(CHECKPOINT_AT_FRAMES) || log == last_log => {
                    done = (log == copied).then_some(log);
                    break;
                }
                // Large, and the writer appended meanwhile: try again at once.
                Ok((log, _)) if attempt < RESET_TRIES => last_log = log,
                Ok((log, _)) => {
                    if log > WAL_FRAMES_HARD_LIMIT {
                        // The writer never paused long enough: reset the WAL
                        // once, blocking writes, so it cannot grow without bound.
                        blocking(&conn, "RESTART");
                    } else {
                        std::thread::sleep(RETRY_PAUSE);
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, "checkpoint failed");
                    break;
                }
            }
        }
        // Two periods without a write since a complete checkpoint: give
        // the WAL file's space back (blocks a write only if one starts now).
        if periodic && done.is_some_and(|log| log > 0) && idle_since == done {
            blocking(&conn, "TRUNCATE");
            idle_since = None;
        } else {
            idle_since = if periodic { done } else { None };
        }
    }
}

fn blocking(conn: &Connection, mode: &str) {
    let t = std::time::Instant::now();
    let r = conn.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |r| {
        r.get::<_, i64>(0)
    });
    tracing::debug!(?r, mode, took = ?t.elapsed(), "blocking checkpoint");
}
