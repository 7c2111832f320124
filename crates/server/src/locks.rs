//! One async mutex per run id, so concurrent /step (or /answer) calls on
//! the same run are serialised while different runs proceed in parallel.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};

#[derive(Default, Clone)]
pub struct RunLocks {
    map: Arc<Mutex<HashMap<String, Weak<AsyncMutex<()>>>>>,
}

impl RunLocks {
    pub async fn lock(&self, run_id: &str) -> OwnedMutexGuard<()> {
        let m = {
            let mut map = self.map.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(m) = map.get(run_id).and_then(Weak::upgrade) {
                m
            } else {
                // Drop entries nobody holds any more, so the map stays small.
                if map.len() > 1024 {
                    map.retain(|_, w| w.strong_count() > 0);
                }
                let m = Arc::new(AsyncMutex::new(()));
                map.insert(run_id.to_string(), Arc::downgrade(&m));
                m
            }
        };
        m.lock_owned().await
    }
}
