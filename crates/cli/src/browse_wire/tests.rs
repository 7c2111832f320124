use super::*;

fn ok(s: &str) -> Answer {
    parse_answer(200, s.as_bytes()).expect("a valid answer")
}

#[test]
fn reads_the_four_answers_of_the_spec() {
    let g = ok(
        r#"{"reason":"The user wants mail, so go","endpoint":"goto","url":"https://www.gmail.com"}"#,
    );
    assert_eq!(
        g.action,
        Action::Goto {
            url: "https://www.gmail.com".into()
        }
    );
    let c = ok(r##"{"reason":"r","endpoint":"click","selector":"#select-all"}"##);
    assert_eq!(
        c.action,
        Action::Click {
            selector: "#select-all".into()
        }
    );
    let t =
        ok(r##"{"reason":"r","endpoint":"type","selector":"#search","text":"funny dog videos"}"##);
    assert_eq!(
        t.action,
        Action::Type {
            selector: "#search".into(),
            text: "funny dog videos".into()
        }
    );
    let f = ok(r#"{"reason":"We are finished","endpoint":"finish"}"#);
    assert_eq!(f.action, Action::Finish);
    assert_eq!(f.reason, "We are finished");
}

#[test]
fn reason_must_come_first_on_the_raw_bytes() {
    let e = parse_answer(200, br#"{"endpoint":"finish","reason":"done"}"#)
        .expect_err("reason not first");
    assert!(
        matches!(&e, WireError::Violation(m) if m.contains("`endpoint` comes first")),
        "{e}"
    );
}

#[test]
fn tolerates_unknown_extra_keys_and_lists_them() {
    let a = ok(r#"{"reason":"r","endpoint":"finish","step":3,"confidence":0.5}"#);
    assert_eq!(
        a.extra_keys,
        vec!["step".to_string(), "confidence".to_string()]
    );
}

#[test]
fn missing_or_wrong_fields_are_violations() {
    for (body, needle) in [
        (r#"{"reason":"r","endpoint":"click"}"#, "has no `selector`"),
        (
            r#"{"reason":"r","endpoint":"type","selector":"a"}"#,
            "has no `text`",
        ),
        (
            r#"{"reason":"r","endpoint":"goto","url":5}"#,
            "not a string",
        ),
        (r#"{"reason":"","endpoint":"finish"}"#, "empty `reason`"),
        (
            r#"{"reason":"r","endpoint":"scroll"}"#,
            "unknown endpoint `scroll`",
        ),
        (r#"{"reason":"r"}"#, "no `endpoint`"),
        (r#"["reason"]"#, "not a JSON object"),
        (r#"{"reason": "r", "endpoint": "fin"#, "not JSON"),
        ("{}", "empty object"),
    ] {
        match parse_answer(200, body.as_bytes()) {
            Err(WireError::Violation(m)) => assert!(m.contains(needle), "{body}: {m}"),
            other => panic!("{body}: {other:?}"),
        }
    }
}

#[test]
fn server_errors_are_told_apart_from_violations() {
    let e = parse_answer(
        404,
        br#"{"error":"Not found","message":"Unknown browse session"}"#,
    );
    assert_eq!(
        e,
        Err(WireError::Server(
            "HTTP 404: Not found: Unknown browse session".into()
        ))
    );
    let ws = parse_answer(200, br#"{"error":"Bad request","message":"missing html"}"#);
    assert_eq!(
        ws,
        Err(WireError::Server("Bad request: missing html".into()))
    );
    let plain = parse_answer(502, b"Bad Gateway");
    assert_eq!(
        plain,
        Err(WireError::Server("HTTP 502: Bad Gateway".into()))
    );
    let detail = parse_answer(422, br#"{"detail":"html is required"}"#);
    assert_eq!(
        detail,
        Err(WireError::Server("HTTP 422: html is required".into()))
    );
}

#[test]
fn requests_have_the_spec_shapes() {
    assert_eq!(
        task_request("<p>", "do it", None).to_string(),
        r#"{"endpoint":"task","html":"<p>","action":"do it"}"#
    );
    assert_eq!(
        state_request("<p>", None).to_string(),
        r#"{"endpoint":"state","html":"<p>"}"#
    );
    assert_eq!(
        state_request("<p>", Some("http://h/")).to_string(),
        r#"{"endpoint":"state","html":"<p>","url":"http://h/"}"#
    );
}

#[test]
fn reads_our_press_and_wait_answers() {
    let p = ok(r##"{"reason":"r","endpoint":"press","selector":"#d","key":"PageUp"}"##);
    assert_eq!(
        p.action,
        Action::Press {
            selector: Some("#d".into()),
            key: "PageUp".into(),
            repeat: 1,
        }
    );
    assert!(p.extra_keys.is_empty(), "{:?}", p.extra_keys);
    let focused = ok(r#"{"reason":"r","endpoint":"press","key":"Escape"}"#);
    assert_eq!(
        focused.action,
        Action::Press {
            selector: None,
            key: "Escape".into(),
            repeat: 1,
        }
    );
    // A slider's arrow key, pressed as many times as the answer says.
    let slid =
        ok(r##"{"reason":"r","endpoint":"press","selector":"#s","key":"ArrowRight","repeat":7}"##);
    assert_eq!(
        slid.action,
        Action::Press {
            selector: Some("#s".into()),
            key: "ArrowRight".into(),
            repeat: 7,
        }
    );
    assert!(slid.extra_keys.is_empty(), "{:?}", slid.extra_keys);
    for bad in [r#"0"#, r#"501"#, r#""7""#, r#"-1"#] {
        let raw =
            format!(r#"{{"reason":"r","endpoint":"press","key":"ArrowRight","repeat":{bad}}}"#);
        assert!(parse_answer(200, raw.as_bytes()).is_err(), "{raw}");
    }
    assert!(parse_answer(200, br#"{"reason":"r","endpoint":"press"}"#).is_err());
    // A wait is bounded on our side too, whatever the server asks.
    let w = ok(r#"{"reason":"r","endpoint":"wait","ms":600000}"#);
    assert_eq!(w.action, Action::Wait { ms: MAX_WAIT_MS });
    assert!(parse_answer(200, br#"{"reason":"r","endpoint":"wait","ms":"soon"}"#).is_err());
}

#[test]
fn the_task_says_what_we_accept_unless_only_the_contract_keys_are_sent() {
    let with = task_request("<p>", "do it", Some("http://h/"));
    assert_eq!(with["accepts"], json!(["press", "wait"]));
    assert!(task_request("<p>", "do it", None).get("accepts").is_none());
}
