//! A turn on one run, shared by /step, /answer and /cancel
//! (docs/server.md "Idempotency key": concurrent calls on one run are
//! serialised): this process's lock on the run, then the store's turn
//! (PostgreSQL: the row lock, or a compare-and-set on the version), the
//! endpoint's change, and its commit. A change decided on a copy that may
//! have been stale (a compare-and-set turn) and not written is decided
//! again, under the row lock, on the stored run: [`in_turns`] is that loop,
//! written once.

use crate::error::ApiError;
use crate::events::{self, Event};
use crate::live::{Live, Slot, Uncommitted};
use crate::state::AppState;
use crate::store::{Reply, RunRow, RunWrite, StoreError, Turn};
use axum::response::Response;
use sentience_agent::time::now_ms;
use std::future::Future;
use std::time::{Duration, Instant};

/// Attempts at a turn: a compare-and-set write that lost to another
/// replica makes the next turn take the row lock, so two are enough; the
/// third is margin.
const TURN_ATTEMPTS: usize = 3;

/// Where an attempt waited before its change began (the step's trace).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Waited {
    /// This process's lock on the run.
    pub lock: Duration,
    /// Taking the store's turn (a pooled connection, `BEGIN` + row lock).
    pub turn: Duration,
}

/// One endpoint's change to a run, made while its turn is held.
pub(crate) trait Change {
    type Reply;

    /// Decides and commits the change (or answers without one: a replay,
    /// an ended run), then ends `turn`. `Ok(None)`: this attempt was decided
    /// on a copy that may have been stale and wrote nothing (the cached copy
    /// is dropped with it): [`in_turns`] takes the turn again, under the row
    /// lock, with the run as stored.
    fn attempt<'a>(
        &'a mut self,
        s: &'a AppState,
        slot: &'a mut Slot,
        turn: Turn,
        waited: Waited,
        attempt: usize,
    ) -> impl Future<Output = Result<Option<Self::Reply>, ApiError>> + Send + 'a;
}

/// Runs `change` in a turn on run `id`, again under the row lock as long as
/// an attempt ends without a write (at most [`TURN_ATTEMPTS`]). `locked`:
/// start under the row lock (a decision that costs too much to be made
/// twice, as an LLM's).
pub(crate) async fn in_turns<C: Change>(
    s: &AppState,
    id: &str,
    mut locked: bool,
    change: &mut C,
) -> Result<C::Reply, ApiError> {
    for attempt in 0..TURN_ATTEMPTS {
        let t_lock = Instant::now();
        let mut slot = s.live.lock(id).await;
        let t_turn = Instant::now();
        let turn = take_turn(s, &mut slot, id, locked).await?;
        let waited = Waited {
            lock: t_turn - t_lock,
            turn: t_turn.elapsed(),
        };
        match change.attempt(s, &mut slot, turn, waited, attempt).await? {
            Some(reply) => return Ok(reply),
            None => locked = true,
        }
    }
    Err(ApiError::Internal(format!(
        "Run {id} kept changing while this request was decided"
    )))
}

/// The run the caller has just put in its slot (`take_turn`): missing only
/// if the cache broke its own invariant.
pub(crate) fn loaded(live: Option<&mut Live>) -> Result<&mut Live, ApiError> {
    live.ok_or_else(|| ApiError::Internal("run cache lost a run".into()))
}

pub(crate) fn not_found(id: &str) -> ApiError {
    ApiError::NotFound(format!("Run {id} not found"))
}

/// docs/contracts/run-api.md §15: 404 "doesn't exist or expired".
pub(crate) fn check_ttl(s: &AppState, live: &Live, id: &str) -> Result<(), ApiError> {
    let idle_ms = now_ms().saturating_sub(live.run.updated_at);
    if u128::from(idle_ms) > s.config.run_ttl.as_millis() {
        return Err(ApiError::NotFound(format!("Run {id} expired")));
    }
    Ok(())
}

/// The version of the cached copy the store should check (none when the
/// cache is off: the store then always reads the run).
pub(crate) fn cached_version(s: &AppState, slot: &Slot) -> Option<i64> {
    slot.as_ref()
        .filter(|_| s.config.cache_runs)
        .map(|l| l.version)
}

/// Takes the run's turn: the caller holds this process's lock on it
/// (`slot`); this takes the store's (across replicas) and puts the stored
/// run in the slot when the cached copy is missing or stale. 404 when the
/// run does not exist or has expired.
///
/// `locked`: a turn that cannot lose a compare-and-set (`Turn::may_conflict`
/// false): when deciding again would cost (an LLM call), or after an
/// attempt on a copy that may have been stale ended without a write.
async fn take_turn(
    s: &AppState,
    slot: &mut Slot,
    id: &str,
    locked: bool,
) -> Result<Turn, ApiError> {
    let cached = cached_version(s, slot);
    let turn = if locked {
        s.store.turn_locked(id, cached).await?
    } else {
        s.store.turn(id, cached).await?
    };
    let Some(mut turn) = turn else {
        // Gone from the database (expired, swept by any replica).
        **slot = None;
        return Err(not_found(id));
    };
    if let Some(stored) = turn.stale.take() {
        **slot = Some(Live::from(stored));
    }
    if let Err(e) = check_ttl(s, loaded(slot.as_mut())?, id) {
        let again = turn.may_conflict();
        turn.release().await;
        if again {
            // The copy may be stale (and its time with it): ask the store.
            **slot = None;
            return Box::pin(take_turn(s, slot, id, true)).await;
        }
        return Err(e);
    }
    Ok(turn)
}

/// The reply stored for an idempotency key on this endpoint, if any.
pub(crate) fn replayed(live: &Live, endpoint: &str, key: Option<&str>) -> Option<Response> {
    let r = live.reply(endpoint, key?)?;
    Some(super::runs::json_response(r.status, r.body.clone(), true))
}

/// Commits `change`'s run with its events and the reply for an idempotency
/// key (`reply`: endpoint, key, answer), and keeps the cached copy.
/// `Ok(None)`: the compare-and-set lost (nothing was written; dropping the
/// change drops the copy). Answers how long the commit itself took (the
/// step's trace).
pub(crate) async fn commit(
    turn: Turn,
    mut change: Uncommitted<'_>,
    reply: Option<(&'static str, Option<String>, &str)>,
    evs: Vec<Event>,
) -> Result<Option<Duration>, ApiError> {
    let live = loaded(change.live())?;
    match write(turn, live, reply, evs).await {
        Ok(took) => {
            change.keep();
            Ok(Some(took))
        }
        Err(StoreError::Conflict) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// Writes the turn's change (the run, the reply for an idempotency key,
/// the events) and commits it, then updates the cached copy to match.
async fn write(
    turn: Turn,
    live: &mut Live,
    reply: Option<(&'static str, Option<String>, &str)>,
    evs: Vec<Event>,
) -> Result<Duration, StoreError> {
    let reply = reply.and_then(|(endpoint, key, text)| {
        key.map(|k| {
            (
                k,
                endpoint,
                Reply {
                    status: 200,
                    body: text.to_string(),
                },
            )
        })
    });
    let events = events::number(&live.run, live.last_seq, evs);
    let first_seq = live.last_seq + 1;
    let last_seq = live.last_seq + events.len() as i64;
    let version = live.version + 1;
    let row = RunRow::of(&live.run, version, last_seq)?;
    let t = Instant::now();
    turn.commit(RunWrite {
        row,
        reply: reply.clone(),
        events,
    })
    .await?;
    let took = t.elapsed();
    // The instant the turn's events became committed (docs/benchmarks.md
    // "Agent server"): an event's `at` is taken before its run is
    // serialised and committed, so delivery measured from `at` includes the
    // commit; `sentience bench-server --commit-trace` joins these lines
    // with its clients' receive times to measure from the commit instead.
    // Wall clock, µs, read only when this target traces.
    if last_seq >= first_seq
        && tracing::enabled!(target: "sentience_server::commits", tracing::Level::TRACE)
    {
        tracing::trace!(
            target: "sentience_server::commits",
            run = %live.run.run_id,
            first_seq,
            last_seq,
            committed_us = now_us(),
            "turn committed"
        );
    }
    live.version = version;
    live.last_seq = last_seq;
    if let Some((k, endpoint, r)) = reply {
        live.remember(endpoint, k, r);
    }
    Ok(took)
}

/// Wall clock, µs since the Unix epoch (the commit trace's instants, to be
/// compared with a client's clock on the same machine).
fn now_us() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64)
}
