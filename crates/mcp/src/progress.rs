//! Progress notifications of long tools (`sentience_run_task`,
//! `browser_wait_for`): sent when the host asked for them (a progress token
//! in the request's `_meta`), never otherwise.

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::service::{Peer, RequestContext, RoleServer};

pub struct Progress {
    token: Option<ProgressToken>,
    peer: Peer<RoleServer>,
}

impl Progress {
    pub fn of(ctx: &RequestContext<RoleServer>) -> Progress {
        Progress {
            token: ctx.meta.get_progress_token(),
            peer: ctx.peer.clone(),
        }
    }

    pub async fn report(&self, done: f64, total: Option<f64>, message: &str) {
        let Some(token) = &self.token else {
            return;
        };
        let mut p = ProgressNotificationParam::new(token.clone(), done).with_message(message);
        if let Some(t) = total {
            p = p.with_total(t);
        }
        // A host that went away is not this tool's failure.
        let _ = self.peer.notify_progress(p).await;
    }
}
