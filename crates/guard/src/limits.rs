//! Requests per second per caller (docs/contracts/run-api.md §15 names rate
//! limiting among what production needs): a token bucket per API key, or
//! per client address when the server has no keys, from `governor` (GCRA).
//! In-process: with several replicas each holds its own buckets
//! (docs/server.md "Running several replicas" says how to size them).

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::num::NonZeroU32;
use std::time::Duration;

/// `per_second` requests a second, bursts of up to `burst`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    pub per_second: NonZeroU32,
    pub burst: NonZeroU32,
}

impl RateLimit {
    /// `per_second` with a burst of twice that (or `burst` when given).
    pub fn new(per_second: u32, burst: Option<u32>) -> Option<RateLimit> {
        let per_second = NonZeroU32::new(per_second)?;
        let burst = burst
            .and_then(NonZeroU32::new)
            .unwrap_or(per_second.saturating_mul(NonZeroU32::MIN.saturating_add(1)));
        Some(RateLimit { per_second, burst })
    }
}

pub(crate) struct Limiter {
    buckets: DefaultKeyedRateLimiter<String>,
    clock: DefaultClock,
}

impl Limiter {
    pub(crate) fn new(rate: RateLimit) -> Limiter {
        let quota = Quota::per_second(rate.per_second).allow_burst(rate.burst);
        Limiter {
            buckets: RateLimiter::keyed(quota),
            clock: DefaultClock::default(),
        }
    }

    /// `Err(wait)` when `caller` is over its rate.
    pub(crate) fn check(&self, caller: &str) -> Result<(), Duration> {
        // Buckets of callers gone quiet are dropped as we go, so a stream
        // of new client addresses cannot grow the map without bound.
        if self.buckets.len() > 10_000 {
            self.buckets.retain_recent();
        }
        self.buckets
            .check_key(&caller.to_string())
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }
}
