//! Where committed run events are announced to the streams open in this
//! process (docs/server.md "The live run stream").
//!
//! Two kinds of announcement:
//! - `publish`: this process committed these events (both engines). They
//!   are kept, for runs someone watches, in a short ring per run, so a
//!   stream that is up to date takes them from memory instead of reading
//!   them back from the database.
//! - `announce`: events up to this number were committed elsewhere (with
//!   PostgreSQL, relayed from other replicas' notifications by
//!   `store/postgres/listen.rs`); a stream reads them from the store.
//!
//! Either way a stream only sends events in order of their numbers, from
//! the ring when it holds every event after the last one sent, else from
//! the store: an announcement missed, merged or repeated changes when events
//! arrive, never which. After the listener reconnects, `poke_all` makes
//! every stream look again in the store (notifications sent meanwhile are
//! lost, and the ring's "nothing after N" only covers what was announced).

use crate::store::StoredEvent;
use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, PoisonError};
use tokio::sync::watch;

/// Events kept per watched run (a turn writes at most a handful).
const RING: usize = 64;

/// `latest` of a run whose last event is not known here yet: it was
/// committed before the first stream subscribed, or elsewhere.
const UNKNOWN: i64 = -1;

struct Watched {
    /// The last committed event number known here.
    latest: watch::Sender<i64>,
    /// The last events this process committed, in order (not necessarily
    /// contiguous: other replicas' events are not here).
    recent: VecDeque<StoredEvent>,
}

#[derive(Default)]
pub struct Hub {
    runs: Mutex<HashMap<String, Watched>>,
    /// Bumped by `poke_all`.
    epoch: watch::Sender<u64>,
}

/// A stream's subscription to one run.
pub struct Subscription {
    seq: watch::Receiver<i64>,
    epoch: watch::Receiver<u64>,
}

/// Why a subscription woke up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wake {
    /// A later event was announced: the ring may hold it.
    Announced,
    /// The hub asks everyone to look again (`poke_all`: announcements may
    /// have been lost), so what it knows is no guide: read the store.
    LookAgain,
}

impl Subscription {
    /// Waits until an event newer than the last one seen here may have been
    /// committed (or the hub asks everyone to look again).
    pub async fn changed(&mut self) -> Wake {
        tokio::select! {
            r = self.seq.changed() => {
                if r.is_err() {
                    // The hub dropped this run's sender (never while a
                    // subscriber holds it): nothing will come from it.
                    std::future::pending::<()>().await;
                }
                Wake::Announced
            }
            r = self.epoch.changed() => {
                if r.is_err() {
                    std::future::pending::<()>().await;
                }
                Wake::LookAgain
            }
        }
    }
}

impl Hub {
    pub fn subscribe(&self, run_id: &str) -> Subscription {
        let mut runs = self.runs.lock().unwrap_or_else(PoisonError::into_inner);
        let w = runs.entry(run_id.to_string()).or_insert_with(|| Watched {
            latest: watch::Sender::new(UNKNOWN),
            recent: VecDeque::new(),
        });
        Subscription {
            seq: w.latest.subscribe(),
            epoch: self.epoch.subscribe(),
        }
    }

    /// Calls `f` with the run's entry if someone watches it (an entry
    /// nobody watches any more is dropped).
    fn watched(&self, run_id: &str, f: impl FnOnce(&mut Watched)) {
        let mut runs = self.runs.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(w) = runs.get_mut(run_id) else {
            return;
        };
        if w.latest.receiver_count() == 0 {
            runs.remove(run_id);
            return;
        }
        f(w);
    }

    /// This process committed `events` (in order) of `run_id`.
    pub fn publish(&self, run_id: &str, events: &[StoredEvent]) {
        let Some(last) = events.last().map(|e| e.seq) else {
            return;
        };
        self.watched(run_id, |w| {
            for e in events {
                if w.recent.len() == RING {
                    w.recent.pop_front();
                }
                w.recent.push_back(e.clone());
            }
            raise(&w.latest, last);
        });
    }

    /// Events up to `seq` of `run_id` were committed (by another process).
    pub fn announce(&self, run_id: &str, seq: i64) {
        self.watched(run_id, |w| raise(&w.latest, seq));
    }

    /// Every event of `run_id` after `after` up to the last one known, if
    /// the ring holds them all; `None`: read them from the store.
    pub fn recent_after(&self, run_id: &str, after: i64) -> Option<Vec<StoredEvent>> {
        let runs = self.runs.lock().unwrap_or_else(PoisonError::into_inner);
        let w = runs.get(run_id)?;
        let latest = *w.latest.borrow();
        // Nothing committed since the first subscription: whatever the run
        // has is in the store only.
        if latest == UNKNOWN {
            return None;
        }
        if latest <= after {
            return Some(Vec::new());
        }
        let out: Vec<StoredEvent> = w.recent.iter().filter(|e| e.seq > after).cloned().collect();
        let complete = out.iter().zip(after + 1..).all(|(e, want)| e.seq == want)
            && out.last().is_some_and(|e| e.seq == latest);
        complete.then_some(out)
    }

    /// Every stream looks at the store again.
    pub fn poke_all(&self) {
        self.epoch.send_modify(|e| *e = e.wrapping_add(1));
    }

    /// Forget runs nobody watches any more.
    pub fn prune(&self) {
        let mut runs = self.runs.lock().unwrap_or_else(PoisonError::into_inner);
        runs.retain(|_, w| w.latest.receiver_count() > 0);
    }
}

fn raise(latest: &watch::Sender<i64>, seq: i64) {
    latest.send_if_modified(|last| {
        let newer = seq > *last;
        if newer {
            *last = seq;
        }
        newer
    });
}

#[cfg(test)]
mod tests;
