//! The pool opened before the first request (docs/benchmarks.md "Agent
//! server", issue 24's ramp-up).
//!
//! deadpool opens a connection when a request finds none idle. When 500 runs
//! start within ~100 ms, the first steps then queue for connections being
//! opened (a TCP connection, authentication, a backend process forked), and
//! each new connection parses and plans every statement the first time a
//! turn prepares it: the runs' first steps had a p99 2.5× the others'. So
//! the store opens all of its connections at start, each with the hot
//! statements prepared, and any connection opened later (after one was
//! closed on an error) prepares them as it is created (`post_create`), not
//! in a step's round trips.

use super::{pool_error, StoreError};
use deadpool_postgres::{Hook, HookError, Pool};

/// Statements a step, a run's start or a stream's look-up prepares.
fn hot() -> impl Iterator<Item = &'static str> {
    super::STATEMENTS
        .into_iter()
        .chain(super::turn::STATEMENTS)
        .chain(super::rate::STATEMENTS)
}

/// Prepares the hot statements on each new connection, all in one round
/// trip (tokio-postgres pipelines the concurrent `Parse`s).
pub(super) fn prepare_on_create() -> Hook {
    Hook::async_fn(|client, _| {
        Box::pin(async move {
            let c = &*client;
            futures_util::future::try_join_all(hot().map(|sql| c.prepare_cached(sql)))
                .await
                .map_err(HookError::Backend)?;
            Ok(())
        })
    })
}

/// Opens the pool's `n` connections now, all at once (held together, so
/// the pool cannot hand the same one back). At least one must open (the
/// database is unusable otherwise); when fewer than `n` do (the server's
/// `max_connections` reached, say), the rest are opened on demand as
/// before, and the server says so.
pub(super) async fn open(pool: &Pool, n: usize) -> Result<(), StoreError> {
    let all = futures_util::future::join_all((0..n).map(|_| pool.get())).await;
    let opened = all.iter().filter(|c| c.is_ok()).count();
    if opened == 0 {
        if let Some(Err(e)) = all.into_iter().next() {
            return Err(pool_error(e));
        }
        return Ok(());
    }
    if let Some(Err(e)) = all.iter().find(|c| c.is_err()) {
        tracing::warn!(
            opened,
            pool = n,
            error = %e,
            "could not open every pooled connection at start; the rest open on demand"
        );
    }
    Ok(())
}
