//! The binding's JSON answers, natively: what bridge.js and the service
//! worker parse.
use sentience_query::{estimate_tokens, format, load, query, query_in};
use serde_json::{json, Value};

fn snap() -> String {
    json!({"status": "success", "elements": [
        {"id": 4, "role": "link", "text": "Help \"me\"\n", "importance": 100, "in_viewport": true},
        {"id": 9, "role": "button", "text": "Sign in", "importance": 600, "in_viewport": true,
         "visual_cues": {"is_primary": true, "is_clickable": true}}
    ]})
    .to_string()
}

fn parse(s: &str) -> Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("{e}: {s}"))
}

#[test]
fn load_then_query_many_times() {
    assert_eq!(
        query("role=link", false),
        r#"{"status":"error","error":"no snapshot loaded"}"#
    );
    assert_eq!(load(&snap()), "");
    assert_eq!(
        parse(&query("", false)),
        json!({"status": "success", "indices": [1, 0]})
    );
    assert_eq!(
        parse(&query("role=link", false)),
        json!({"status": "success", "indices": [0]})
    );
    assert_eq!(
        parse(&query("role=button", true)),
        json!({"status": "success", "indices": [1]})
    );
    assert_eq!(
        parse(&query("role=radio", true)),
        json!({"status": "success", "indices": []})
    );
    let err = parse(&query("text~'unterminated", false));
    assert_eq!(err["status"], "error");
    assert_eq!(err["position"], 5);
    assert!(err["error"]
        .as_str()
        .unwrap()
        .starts_with("invalid query: unterminated string"));
    // A failed load forgets the previous snapshot rather than answering from it.
    assert!(
        parse(&load(r#"{"status":"error","error":"boom"}"#))["error"]
            .as_str()
            .unwrap()
            .contains("boom")
    );
    assert_eq!(parse(&query("", false))["error"], "no snapshot loaded");
}

#[test]
fn stateless_query_and_format() {
    assert_eq!(
        parse(&query_in(&snap(), "is_primary=true", false))["indices"],
        json!([1])
    );
    assert_eq!(parse(&query_in("not json", "", false))["status"], "error");
    let f = parse(&format(&snap(), 1000));
    assert_eq!(f["status"], "success");
    assert_eq!(
        f["text"],
        "9 button \"Sign in\" primary @0,0\n4 link \"Help \\\"me\\\"\" @0,0\n"
    );
    assert_eq!(f["shown"], 2);
    assert_eq!(f["total"], 2);
    assert_eq!(
        f["tokens"].as_u64().unwrap() as u32,
        estimate_tokens(f["text"].as_str().unwrap())
    );
    assert_eq!(
        parse(&format("[]", 10))["error"],
        "a snapshot must be a JSON object"
    );
}
