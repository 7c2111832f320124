use crate::retry::{next_step, RetryStep};
use crate::test_support::*;
use crate::{Action, Hands, HandsConfig};
use serde_json::json;
use std::cell::Cell;
use std::rc::Rc;

fn scroll() -> Action {
    Action {
        kind: "scroll".into(),
        ..Default::default()
    }
}

#[test]
fn backoff_is_500_ms_times_the_attempt_and_none_after_the_last() {
    let http =
        FakeHttp::new(|_| ok(json!({"success": false, "error": "Timeout 30000ms exceeded"})));
    let clock = FakeClock::default();
    let hands = Hands::new(&http, &clock, "http://tools");
    let r = block_on(hands.execute_with_retry(&scroll()));
    assert_eq!(*clock.sleeps.borrow(), vec![500, 1000]);
    assert_eq!(http.calls(), vec!["POST /scroll"; 3]);
    assert_eq!(r["success"], json!(false));
    assert_eq!(
        r["error"],
        json!("Failed after 3 attempts: Timeout 30000ms exceeded")
    );
}

#[test]
fn the_schedule_follows_the_config() {
    let cfg = HandsConfig {
        max_attempts: 4,
        backoff_step_ms: 100,
        ..Default::default()
    };
    assert_eq!(
        next_step(&cfg, 1, &json!({"success": false, "error": "x"})),
        RetryStep::Wait(100)
    );
    assert_eq!(
        next_step(&cfg, 3, &json!({"success": false, "error": "x"})),
        RetryStep::Wait(300)
    );
    let http = FakeHttp::new(|_| ok(json!({"success": false, "error": "busy"})));
    let clock = FakeClock::default();
    let mut hands = Hands::new(&http, &clock, "http://tools");
    hands.config = cfg;
    block_on(hands.execute_with_retry(&scroll()));
    assert_eq!(*clock.sleeps.borrow(), vec![100, 200, 300]);
}

#[test]
fn success_on_the_second_attempt_stops_there() {
    let n = Rc::new(Cell::new(0));
    let m = n.clone();
    let http = FakeHttp::new(move |_| {
        m.set(m.get() + 1);
        if m.get() == 1 {
            ok(json!({"success": false, "error": "flaky"}))
        } else {
            ok(json!({"success": true, "details": {"direction": "down", "amount": 300}}))
        }
    });
    let clock = FakeClock::default();
    let hands = Hands::new(&http, &clock, "http://tools");
    let r = block_on(hands.execute_with_retry(&scroll()));
    assert_eq!(r["success"], json!(true));
    assert_eq!(r["attempts"], json!(2));
    assert_eq!(*clock.sleeps.borrow(), vec![500]);
}

#[test]
fn outside_viewport_is_never_retried() {
    let http = FakeHttp::new(|_| {
        ok(
            json!({"success": false, "error": "Coordinates (1500, 200) outside viewport bounds (1280x720)"}),
        )
    });
    let clock = FakeClock::default();
    let hands = Hands::new(&http, &clock, "http://tools");
    let a = Action {
        kind: "click".into(),
        x: Some(1500.0),
        y: Some(200.0),
        ..Default::default()
    };
    let r = block_on(hands.execute_with_retry(&a));
    assert_eq!(
        http.calls().iter().filter(|c| *c == "POST /click").count(),
        1
    );
    assert!(clock.sleeps.borrow().is_empty());
    assert_eq!(r["retryable"], json!(false));
    let e = r["error"].as_str().unwrap_or("");
    assert!(
        e.contains("outside viewport bounds (1280x720)") && e.contains("fresh screenshot"),
        "{e}"
    );
}

#[test]
fn session_not_found_starts_a_browser_and_retries_at_once() {
    let http = FakeHttp::new(|req| match path_of(req) {
        "/browser/start" => {
            ok(json!({"success": true, "session_id": "session-2", "current_url": "about:blank"}))
        }
        "/scroll"
            if req
                .body
                .as_ref()
                .is_some_and(|b| b["session_id"] == json!("session-2")) =>
        {
            ok(json!({"success": true}))
        }
        _ => Ok(crate::io::Response {
            status: 404,
            body: json!({"success": false, "error": "Session not found: session-1"}),
        }),
    });
    let clock = FakeClock::default();
    let hands = Hands::new(&http, &clock, "http://tools");
    hands.tools.set_session_id(Some("session-1".into()));
    let r = block_on(hands.execute_with_retry(&scroll()));
    assert_eq!(
        http.calls(),
        vec!["POST /scroll", "POST /browser/start", "POST /scroll"]
    );
    assert_eq!(r["success"], json!(true));
    assert_eq!(r["sessionRestarted"], json!(true));
    assert!(clock.sleeps.borrow().is_empty());
}

#[test]
fn a_transport_error_waits_a_second_and_names_the_cause() {
    let http = FakeHttp::new(|_| Err(crate::io::TransportError("connection refused".into())));
    let clock = FakeClock::default();
    let hands = Hands::new(&http, &clock, "http://tools");
    let r = block_on(hands.execute_with_retry(&scroll()));
    assert_eq!(*clock.sleeps.borrow(), vec![1000, 1000]);
    assert_eq!(
        r["error"],
        json!("Failed after 3 attempts: tool server unreachable: connection refused")
    );
}

#[test]
fn deterministic_actions_go_to_their_endpoint_with_the_session() {
    let http = FakeHttp::new(|_| ok(json!({"success": true, "url": "https://example.com/"})));
    let clock = FakeClock::default();
    let hands = Hands::new(&http, &clock, "http://tools/");
    hands.tools.set_session_id(Some("s 1".into()));
    let mut params = serde_json::Map::new();
    params.insert("url".into(), json!("https://example.com"));
    block_on(hands.execute_with_retry(&Action {
        kind: "go_to_url".into(),
        params,
        ..Default::default()
    }));
    block_on(hands.execute_with_retry(&Action {
        kind: "go_back".into(),
        ..Default::default()
    }));
    let log = http.log.borrow();
    assert_eq!(log[0].url, "http://tools/browser/navigate");
    assert_eq!(
        log[0].body,
        Some(json!({"url": "https://example.com", "session_id": "s 1"}))
    );
    assert_eq!(log[1].url, "http://tools/browser/back?session_id=s%201");
}
