//! Where committed run events are announced to the streams open in this
//! process (docs/server.md "The live run stream"). An announcement carries
//! only the run and the number of its last committed event: the events
//! themselves are read from the store, so an announcement that is missed,
//! merged with the next or repeated never loses or repeats an event.
//!
//! Who announces: this process after each commit (both engines), and, with
//! PostgreSQL, the listener that relays other replicas' notifications
//! (`store/postgres/listen.rs`). After the listener reconnects, `poke_all`
//! makes every stream look again (notifications sent meanwhile are lost).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use tokio::sync::watch;

#[derive(Default)]
pub struct Hub {
    runs: Mutex<HashMap<String, watch::Sender<i64>>>,
    /// Bumped by `poke_all`.
    epoch: watch::Sender<u64>,
}

/// A stream's subscription to one run.
pub struct Subscription {
    seq: watch::Receiver<i64>,
    epoch: watch::Receiver<u64>,
}

impl Subscription {
    /// Waits until an event newer than the last one seen here may have been
    /// committed (or the hub asks everyone to look again).
    pub async fn changed(&mut self) {
        tokio::select! {
            r = self.seq.changed() => {
                if r.is_err() {
                    // The hub dropped this run's sender (never while a
                    // subscriber holds it): nothing will come from it.
                    std::future::pending::<()>().await;
                }
            }
            r = self.epoch.changed() => {
                if r.is_err() {
                    std::future::pending::<()>().await;
                }
            }
        }
    }
}

impl Hub {
    pub fn subscribe(&self, run_id: &str) -> Subscription {
        let mut runs = self.runs.lock().unwrap_or_else(PoisonError::into_inner);
        let seq = match runs.get(run_id) {
            Some(tx) => tx.subscribe(),
            None => {
                let (tx, rx) = watch::channel(0);
                runs.insert(run_id.to_string(), tx);
                rx
            }
        };
        Subscription {
            seq,
            epoch: self.epoch.subscribe(),
        }
    }

    /// Events up to `seq` of `run_id` are committed.
    pub fn publish(&self, run_id: &str, seq: i64) {
        let mut runs = self.runs.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(tx) = runs.get(run_id) else {
            return;
        };
        if tx.receiver_count() == 0 {
            runs.remove(run_id);
            return;
        }
        tx.send_if_modified(|last| {
            let newer = seq > *last;
            if newer {
                *last = seq;
            }
            newer
        });
    }

    /// Every stream looks at the store again.
    pub fn poke_all(&self) {
        self.epoch.send_modify(|e| *e = e.wrapping_add(1));
    }

    /// Forget runs nobody watches any more.
    pub fn prune(&self) {
        let mut runs = self.runs.lock().unwrap_or_else(PoisonError::into_inner);
        runs.retain(|_, tx| tx.receiver_count() > 0);
    }

    /// Runs watched by at least one stream of this process.
    pub fn watched(&self) -> usize {
        let runs = self.runs.lock().unwrap_or_else(PoisonError::into_inner);
        runs.values().filter(|tx| tx.receiver_count() > 0).count()
    }
}
