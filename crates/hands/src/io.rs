//! The only doors to the outside: an HTTP client and a clock, injected.
//! Natively the CLI passes reqwest and tokio; the WebAssembly package passes
//! JavaScript's `fetch` and `setTimeout`; tests pass scripted fakes.

use serde_json::Value;
use std::future::Future;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
        }
    }
}

/// One HTTP exchange with a JSON body (or none).
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub method: Method,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<Value>,
}

/// The answer: status and the body parsed as JSON (`Value::Null` when the
/// body was empty or not JSON).
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    pub status: u16,
    pub body: Value,
}

/// A transport failure: no answer at all (connection refused, timeout).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct TransportError(pub String);

pub trait Http {
    fn send(&self, req: Request) -> impl Future<Output = Result<Response, TransportError>>;
}

pub trait Clock {
    /// Milliseconds since some fixed origin (for timings only).
    fn now_ms(&self) -> f64;
    fn sleep(&self, ms: u64) -> impl Future<Output = ()>;
}

impl<T: Http> Http for &T {
    fn send(&self, req: Request) -> impl Future<Output = Result<Response, TransportError>> {
        (**self).send(req)
    }
}

impl<T: Clock> Clock for &T {
    fn now_ms(&self) -> f64 {
        (**self).now_ms()
    }
    fn sleep(&self, ms: u64) -> impl Future<Output = ()> {
        (**self).sleep(ms)
    }
}
