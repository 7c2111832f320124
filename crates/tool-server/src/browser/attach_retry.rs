//! One answer to Chromium's "Not attached to an active page": a tab that is
//! swapping in a document (the new-tab page Chromium opens at start, a
//! navigation that just committed) refuses page commands for a few
//! milliseconds, under load for a few hundred. Every caller that may meet
//! that moment (the tool server's first tab and history reads, the MCP
//! server's calls on a tab) asks again through this one function, on the
//! same schedule, instead of each keeping its own loop.

use crate::error::ToolError;
use std::future::Future;
use std::time::Duration;

/// How long a tab may stay detached before the error is the answer.
pub const DETACHED_FOR_AT_MOST: Duration = Duration::from_secs(5);
/// Pause between two tries.
const AGAIN_AFTER: Duration = Duration::from_millis(50);

/// Chromium's words for a tab between two documents.
pub fn is_detached(e: &ToolError) -> bool {
    e.to_string().contains("Not attached")
}

/// Runs `f` until it succeeds, fails otherwise, or the tab has been
/// detached for `limit` (then its last error is returned).
pub async fn while_detached<T, F, Fut>(limit: Duration, mut f: F) -> Result<T, ToolError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, ToolError>>,
{
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        match f().await {
            Err(e) if is_detached(&e) && tokio::time::Instant::now() < deadline => {
                tokio::time::sleep(AGAIN_AFTER).await;
            }
            other => return other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    fn detached() -> ToolError {
        ToolError::backend("Page.navigate", "Not attached to an active page")
    }

    #[tokio::test]
    async fn a_tab_detached_for_a_moment_is_asked_again() {
        let calls = AtomicU32::new(0);
        let r = while_detached(DETACHED_FOR_AT_MOST, || async {
            match calls.fetch_add(1, Ordering::SeqCst) {
                0 | 1 => Err(detached()),
                _ => Ok(7),
            }
        })
        .await;
        assert_eq!(r.ok(), Some(7));
        assert_eq!(calls.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn another_error_is_the_answer_at_once() {
        let calls = AtomicU32::new(0);
        let r: Result<(), _> = while_detached(DETACHED_FOR_AT_MOST, || async {
            calls.fetch_add(1, Ordering::SeqCst);
            Err(ToolError::NotFound("no such tab".into()))
        })
        .await;
        assert!(matches!(r, Err(ToolError::NotFound(_))));
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_tab_that_stays_detached_gives_the_error_after_the_limit() {
        let started = tokio::time::Instant::now();
        let r: Result<(), _> =
            while_detached(Duration::from_millis(200), || async { Err(detached()) }).await;
        assert!(r.as_ref().is_err_and(is_detached), "{r:?}");
        assert!(started.elapsed() >= Duration::from_millis(200));
        assert!(started.elapsed() < Duration::from_secs(2));
    }
}
