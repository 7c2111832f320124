//! wasm-bindgen binding of `sentience-snapshot-query` for the extension. No logic:
//! every function takes and returns JSON text, and errors come back as
//! `{"status":"error","error":…}` values, never as exceptions.
//!
//! The content script `load`s the snapshot it produced last once, then runs
//! any number of queries against it (parse once, evaluate many). The
//! service worker (strict-CSP pages) uses the stateless `query_in` /
//! `format`, receiving the snapshot with each call.

use sentience_snapshot_query::{format_elements, Query, Snapshot};

use std::cell::RefCell;
use wasm_bindgen::prelude::*;

thread_local! {
    static LOADED: RefCell<Option<Snapshot>> = const { RefCell::new(None) };
}

/// JSON string literal of `s`. The answers are built by hand rather than
/// through serde_json::Value, which keeps this module smaller.
fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

fn error(message: impl Into<String>) -> String {
    format!(r#"{{"status":"error","error":{}}}"#, quote(&message.into()))
}

/// Keeps `snapshot_json` for later `query` calls. Returns "" or an error JSON.
#[wasm_bindgen]
pub fn load(snapshot_json: &str) -> String {
    match Snapshot::from_json(snapshot_json) {
        Ok(s) => {
            LOADED.with(|l| *l.borrow_mut() = Some(s));
            String::new()
        }
        Err(e) => {
            LOADED.with(|l| *l.borrow_mut() = None);
            error(e)
        }
    }
}

fn run(snapshot: &Snapshot, query: &str, first_only: bool) -> String {
    match Query::parse(query) {
        Err(e) => format!(
            r#"{{"status":"error","error":{},"position":{}}}"#,
            quote(&format!("invalid query: {e}")),
            e.position
        ),
        Ok(q) => {
            let indices: Vec<usize> = if first_only {
                q.find(&snapshot.elements).into_iter().collect()
            } else {
                q.run(&snapshot.elements)
            };
            let list: Vec<String> = indices.iter().map(usize::to_string).collect();
            format!(r#"{{"status":"success","indices":[{}]}}"#, list.join(","))
        }
    }
}

/// Indices (into the loaded snapshot's `elements`) of the matches, most
/// important first: `{"status":"success","indices":[…]}`.
#[wasm_bindgen]
pub fn query(query: &str, first_only: bool) -> String {
    LOADED.with(|l| match l.borrow().as_ref() {
        Some(s) => run(s, query, first_only),
        None => error("no snapshot loaded"),
    })
}

/// `query` against the given snapshot, without keeping it.
#[wasm_bindgen]
pub fn query_in(snapshot_json: &str, query: &str, first_only: bool) -> String {
    match Snapshot::from_json(snapshot_json) {
        Ok(s) => run(&s, query, first_only),
        Err(e) => error(e),
    }
}

fn format_answer(snapshot: &Snapshot, max_tokens: u32) -> String {
    let f = format_elements(&snapshot.elements, max_tokens as usize);
    format!(
        r#"{{"status":"success","text":{},"shown":{},"total":{},"tokens":{}}}"#,
        quote(&f.text),
        f.shown,
        f.total,
        f.tokens
    )
}

/// `{"status":"success","text":…,"shown":n,"total":n,"tokens":n}`.
#[wasm_bindgen]
pub fn format(snapshot_json: &str, max_tokens: u32) -> String {
    match Snapshot::from_json(snapshot_json) {
        Ok(s) => format_answer(&s, max_tokens),
        Err(e) => error(e),
    }
}

/// `format` of the loaded snapshot: `format()` after `query()` (or twice
/// with other budgets) parses the snapshot once.
#[wasm_bindgen]
pub fn format_loaded(max_tokens: u32) -> String {
    LOADED.with(|l| match l.borrow().as_ref() {
        Some(s) => format_answer(s, max_tokens),
        None => error("no snapshot loaded"),
    })
}

/// The format's conservative token estimate of `text` (see
/// `sentience_snapshot_query::tokens`), for measuring other texts the same way.
#[wasm_bindgen]
pub fn estimate_tokens(text: &str) -> u32 {
    u32::try_from(sentience_snapshot_query::estimate_tokens(text)).unwrap_or(u32::MAX)
}
