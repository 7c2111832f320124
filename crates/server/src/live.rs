//! Live runs: an in-memory copy of recently used runs, which is also the
//! per-run lock. One async mutex per run id serialises /step, /answer,
//! /cancel and GET on that run while different runs proceed in parallel;
//! the mutex guards the cached `Run` (and the idempotency replies stored for
//! it), so a step neither reloads nor re-parses the run from SQLite.
//!
//! The database stays the source of truth: a change is written (and
//! committed) before it is answered, and a cached copy whose change did not
//! commit is dropped (see `Uncommitted`), so the next request reloads what
//! the database holds. Runs unused for a while, or beyond the capacity, are
//! evicted and reloaded on their next request.
//!
//! Several processes on one PostgreSQL database (docs/server.md "Running
//! several replicas"): this lock only orders this process's requests; the
//! store's turn (a row lock, or a compare-and-set on the version) orders
//! them across processes. A cached copy carries the version it was stored
//! with: a turn under the row lock reads the stored version and replaces a
//! copy another replica made stale in the same round trip
//! (`routes::runs::take_turn`); a compare-and-set turn that finds its copy
//! stale writes nothing, and the request is decided again.

use crate::store::{Reply, StoredRun};
use sentience_agent::time::now_ms;
use sentience_agent::Run;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};

/// A run as cached, with the replies stored for its idempotency keys, the
/// version it was stored with and the number of its last stream event.
pub struct Live {
    pub run: Run,
    /// (endpoint, idempotency key) → the reply stored for it.
    replies: HashMap<(String, String), Reply>,
    pub version: i64,
    pub last_seq: i64,
}

impl Live {
    /// A run as just created: version 1, `last_seq` events.
    pub fn new(run: Run, last_seq: i64) -> Live {
        Live {
            run,
            replies: HashMap::new(),
            version: 1,
            last_seq,
        }
    }

    pub fn reply(&self, endpoint: &str, key: &str) -> Option<&Reply> {
        self.replies.get(&(endpoint.to_string(), key.to_string()))
    }

    pub fn remember(&mut self, endpoint: &str, key: String, reply: Reply) {
        self.replies.insert((endpoint.to_string(), key), reply);
    }
}

impl From<StoredRun> for Live {
    fn from(s: StoredRun) -> Live {
        Live {
            run: s.run,
            replies: s
                .replies
                .into_iter()
                .map(|(key, endpoint, r)| ((endpoint, key), r))
                .collect(),
            version: s.version,
            last_seq: s.last_seq,
        }
    }
}

/// The lock on one run: `None` until the run is loaded (or after a failed
/// write dropped it).
pub type Slot = OwnedMutexGuard<Option<Live>>;

struct Entry {
    slot: Arc<AsyncMutex<Option<Live>>>,
    last_used: u64,
}

impl Entry {
    /// Nobody holds or waits for this run's lock (every guard and waiter
    /// owns a clone of the `Arc`, and clones are only made under the map
    /// lock), so the entry can be dropped.
    fn unused(&self) -> bool {
        Arc::strong_count(&self.slot) == 1
    }
}

pub struct LiveRuns {
    map: Mutex<HashMap<String, Entry>>,
    capacity: usize,
}

impl LiveRuns {
    pub fn new(capacity: usize) -> LiveRuns {
        LiveRuns {
            map: Mutex::new(HashMap::new()),
            capacity: capacity.max(1),
        }
    }

    /// Lock a run (waiting for any request already working on it).
    pub async fn lock(&self, run_id: &str) -> Slot {
        let slot = {
            let mut map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
            let now = now_ms();
            let slot = match map.get_mut(run_id) {
                Some(e) => {
                    e.last_used = now;
                    e.slot.clone()
                }
                None => {
                    if map.len() >= self.capacity {
                        shrink(&mut map, self.capacity - self.capacity / 4);
                    }
                    let slot = Arc::new(AsyncMutex::new(None));
                    map.insert(
                        run_id.to_string(),
                        Entry {
                            slot: slot.clone(),
                            last_used: now,
                        },
                    );
                    slot
                }
            };
            slot
        };
        slot.lock_owned().await
    }

    /// Cache a run that was just created and saved.
    pub async fn insert(&self, live: Live) {
        let id = live.run.run_id.clone();
        *self.lock(&id).await = Some(live);
    }

    /// Drop runs unused since before `cutoff_ms`.
    pub fn evict_idle(&self, cutoff_ms: u64) -> usize {
        let mut map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
        let before = map.len();
        map.retain(|_, e| !(e.unused() && e.last_used < cutoff_ms));
        before - map.len()
    }
}

/// Evict the least recently used unlocked runs down to `target` entries.
fn shrink(map: &mut HashMap<String, Entry>, target: usize) {
    let mut idle: Vec<(u64, String)> = map
        .iter()
        .filter(|(_, e)| e.unused())
        .map(|(k, e)| (e.last_used, k.clone()))
        .collect();
    idle.sort_unstable();
    let excess = map.len().saturating_sub(target);
    for (_, k) in idle.into_iter().take(excess) {
        map.remove(&k);
    }
}

/// A change to a cached run that is not committed yet: unless `keep` is
/// called (after the write committed), dropping it drops the cached copy,
/// so the next request reloads the run from the database. This also covers
/// a request cancelled mid-write (client gone): its future is dropped here.
pub struct Uncommitted<'a> {
    slot: Option<&'a mut Option<Live>>,
}

impl<'a> Uncommitted<'a> {
    pub fn new(slot: &'a mut Option<Live>) -> Uncommitted<'a> {
        Uncommitted { slot: Some(slot) }
    }

    /// The cached run (the caller loaded it before starting the change).
    pub fn live(&mut self) -> Option<&mut Live> {
        self.slot.as_deref_mut().and_then(Option::as_mut)
    }

    /// The change committed (or nothing changed): keep the cached copy.
    pub fn keep(mut self) {
        self.slot = None;
    }
}

impl Drop for Uncommitted<'_> {
    fn drop(&mut self) {
        if let Some(slot) = self.slot.take() {
            *slot = None;
        }
    }
}
