//! What the rules' native tests share (each module's tests are in its
//! `tests.rs`): a scripted tool server (a closure answering each request)
//! and a clock that records the sleeps asked of it.

use crate::io::{Clock, Http, Request, Response, TransportError};
use serde_json::Value;
use std::cell::RefCell;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

/// Runs a future whose I/O is all scripted (never pending for real).
pub fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

type Script = Box<dyn Fn(&Request) -> Result<Response, TransportError>>;

/// A tool server (and vision providers) that answer from a closure and
/// remember every request.
pub struct FakeHttp {
    pub script: Script,
    pub log: RefCell<Vec<Request>>,
}

impl FakeHttp {
    pub fn new(f: impl Fn(&Request) -> Result<Response, TransportError> + 'static) -> Self {
        FakeHttp {
            script: Box::new(f),
            log: RefCell::new(Vec::new()),
        }
    }
    /// `METHOD path` of each request, in order (query strings dropped).
    pub fn calls(&self) -> Vec<String> {
        self.log
            .borrow()
            .iter()
            .map(|r| {
                let path = r
                    .url
                    .split_once("://")
                    .map_or(r.url.as_str(), |(_, rest)| rest);
                let path = path.find('/').map_or("/", |i| &path[i..]);
                let path = path.split('?').next().unwrap_or(path);
                format!("{} {}", r.method.as_str(), path)
            })
            .collect()
    }
    pub fn bodies(&self, path: &str) -> Vec<Value> {
        self.log
            .borrow()
            .iter()
            .filter(|r| r.url.contains(path))
            .filter_map(|r| r.body.clone())
            .collect()
    }
}

impl Http for FakeHttp {
    async fn send(&self, req: Request) -> Result<Response, TransportError> {
        self.log.borrow_mut().push(req.clone());
        (self.script)(&req)
    }
}

pub fn ok(body: Value) -> Result<Response, TransportError> {
    Ok(Response { status: 200, body })
}

/// A clock whose sleeps return at once and are written down.
#[derive(Default)]
pub struct FakeClock {
    pub sleeps: RefCell<Vec<u64>>,
}

impl Clock for FakeClock {
    fn now_ms(&self) -> f64 {
        self.sleeps.borrow().iter().sum::<u64>() as f64
    }
    async fn sleep(&self, ms: u64) {
        self.sleeps.borrow_mut().push(ms);
    }
}

pub fn path_of(req: &Request) -> &str {
    let rest = req
        .url
        .split_once("://")
        .map_or(req.url.as_str(), |(_, r)| r);
    let p = rest.find('/').map_or("/", |i| &rest[i..]);
    p.split('?').next().unwrap_or(p)
}
