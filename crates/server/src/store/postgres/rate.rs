//! The guard's per-caller request rate (docs/security.md), shared by every
//! replica on one database: the same GCRA that `governor` runs in one
//! process (a theoretical arrival time per caller, `tat`), kept in an
//! unlogged table and advanced by one statement per request. The database's
//! clock is the only clock, so replicas' clocks need not agree.
//!
//! With emission interval T = 1/rate and capacity τ = burst·T, a request
//! at time t is allowed iff max(tat, t) + T − t ≤ τ, and then
//! tat ← max(tat, t) + T; refused, it may retry after max(tat, t) + T − t − τ.

use crate::store::StoreError;
use sentience_guard::RateLimit;
use std::time::Duration;

const CHECK: &str = "
WITH now AS (SELECT extract(epoch FROM clock_timestamp())::float8 AS t),
old AS (SELECT tat FROM rate_buckets WHERE key = $1),
up AS (
    INSERT INTO rate_buckets AS b (key, tat) SELECT $1, now.t + $2 FROM now
    ON CONFLICT (key) DO UPDATE SET tat = GREATEST(b.tat, (SELECT t FROM now)) + $2
        WHERE GREATEST(b.tat, (SELECT t FROM now)) + $2 - (SELECT t FROM now) <= $3
    RETURNING 1
)
SELECT EXISTS (SELECT 1 FROM up), (SELECT tat FROM old) - (SELECT t FROM now)";

pub(super) async fn check(
    c: &deadpool_postgres::Object,
    key: &str,
    rate: RateLimit,
) -> Result<Result<(), Duration>, StoreError> {
    let t = 1.0 / f64::from(rate.per_second.get());
    let tau = f64::from(rate.burst.get()) * t;
    let stmt = c.prepare_cached(CHECK).await?;
    let row = c.query_one(&stmt, &[&key, &t, &tau]).await?;
    if row.try_get::<_, bool>(0)? {
        return Ok(Ok(()));
    }
    let ahead: Option<f64> = row.try_get(1)?;
    let wait = ahead.unwrap_or(0.0).max(0.0) + t - tau;
    Ok(Err(Duration::from_secs_f64(wait.max(0.001))))
}

/// Drop callers idle for an hour (their bucket is full again long before).
pub(super) async fn forget_idle(c: &deadpool_postgres::Object) -> Result<(), StoreError> {
    c.execute(
        "DELETE FROM rate_buckets WHERE tat < extract(epoch FROM clock_timestamp()) - 3600",
        &[],
    )
    .await?;
    Ok(())
}

/// Prepared on each connection as the pool opens it (`warm.rs`).
pub(super) const STATEMENTS: [&str; 1] = [CHECK];
