#![allow(clippy::unwrap_used)]

use crate::{host, Guard, GuardConfig, RateLimit, Refusal};
use axum::body::Body;
use axum::http::Request;
use axum::response::IntoResponse;
use std::net::SocketAddr;

fn addr(s: &str) -> SocketAddr {
    s.parse().unwrap()
}

#[test]
fn hosts_are_split_with_ports_and_brackets() {
    assert_eq!(
        host::split("LocalHost:3131"),
        ("localhost".into(), Some("3131"))
    );
    assert_eq!(host::split("[::1]:80"), ("::1".into(), Some("80")));
    assert_eq!(host::split("[::1]"), ("::1".into(), None));
    assert_eq!(host::split("example.com."), ("example.com".into(), None));
    assert_eq!(host::split("::1"), ("::1".into(), None));
}

#[test]
fn loopback_names_with_our_port_pass_and_others_do_not() {
    let bound = [addr("127.0.0.1:3131")];
    for ok in [
        "localhost:3131",
        "127.0.0.1:3131",
        "[::1]:3131",
        "localhost",
        "127.0.0.2:3131",
    ] {
        assert!(host::allowed(ok, &bound, &[]), "{ok}");
    }
    for bad in [
        "evil.example:3131",
        "evil.example",
        "localhost:3132",
        "127.0.0.1:80",
        "localhost.evil.example:3131",
        "192.168.1.5:3131",
        "localhost:x",
        "",
    ] {
        assert!(!host::allowed(bad, &bound, &[]), "{bad}");
    }
}

#[test]
fn configured_names_and_the_bound_address_pass() {
    let bound = [addr("192.168.1.5:3131")];
    assert!(host::allowed("192.168.1.5:3131", &bound, &[]));
    assert!(!host::allowed("10.0.0.1:3131", &bound, &[]));
    let extra = [
        "agent.example.com".to_string(),
        "other.example:8443".to_string(),
    ];
    assert!(host::allowed("agent.example.com", &bound, &extra));
    assert!(host::allowed("Agent.Example.com:443", &bound, &extra));
    assert!(host::allowed("other.example:8443", &bound, &extra));
    assert!(!host::allowed("other.example:443", &bound, &extra));
    // Bound to every interface: any address literal, never a name.
    let any = [addr("0.0.0.0:3131")];
    assert!(host::allowed("10.1.2.3:3131", &any, &[]));
    assert!(!host::allowed("rebind.example:3131", &any, &[]));
    // Two listeners (the run API and System 2's port): either port.
    let two = [addr("127.0.0.1:3131"), addr("127.0.0.1:8000")];
    assert!(host::allowed("localhost:8000", &two, &[]));
}

fn respond(r: &Refusal, path: &str) -> axum::response::Response {
    format!("{path}: {r}").into_response()
}

fn request(headers: &[(&str, &str)]) -> Request<Body> {
    let mut b = Request::post("/x");
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    b.body(Body::empty()).unwrap()
}

#[test]
fn origins_are_refused_unless_configured() {
    let g = Guard::new(
        GuardConfig {
            allowed_origins: vec!["https://app.example/".into()],
            ..GuardConfig::default()
        },
        respond,
    );
    g.listening_on(addr("127.0.0.1:3131"));
    let host = ("host", "127.0.0.1:3131");
    assert!(g.check(&request(&[host])).is_ok());
    assert!(g
        .check(&request(&[host, ("origin", "https://app.example")]))
        .is_ok());
    // Our extension, on every service, configured or not.
    for config in [g.config().clone(), GuardConfig::default()] {
        let g = Guard::new(config, respond);
        assert!(g
            .check(&request(&[host, ("origin", crate::EXTENSION_ORIGIN)]))
            .is_ok());
    }
    for o in [
        "https://evil.example",
        "null",
        "https://app.example.evil",
        "chrome-extension://abc",
    ] {
        assert_eq!(
            g.check(&request(&[host, ("origin", o)])),
            Err(Refusal::Origin(o.into())),
            "{o}"
        );
    }
    // A page's no-cors GET carries no Origin, but says where it comes from.
    assert!(matches!(
        g.check(&request(&[host, ("sec-fetch-site", "cross-site")])),
        Err(Refusal::Origin(_))
    ));
    assert!(g
        .check(&request(&[host, ("sec-fetch-site", "none")]))
        .is_ok());
    // The Host check comes first.
    assert!(matches!(
        g.check(&request(&[("host", "evil.example:3131")])),
        Err(Refusal::Host(_))
    ));
}

#[test]
fn keys_are_required_except_on_open_paths() {
    let g = Guard::new(
        GuardConfig {
            keys: vec!["alpha".into(), "beta".into()],
            open_paths: vec!["/health".into()],
            ..GuardConfig::default()
        },
        respond,
    );
    assert_eq!(g.check(&request(&[])), Err(Refusal::Unauthorized));
    assert_eq!(
        g.check(&request(&[("authorization", "Bearer gamma")])),
        Err(Refusal::Unauthorized)
    );
    let a = g
        .check(&request(&[("authorization", "Bearer alpha")]))
        .unwrap();
    let b = g
        .check(&request(&[("authorization", "Bearer beta")]))
        .unwrap();
    assert_ne!(a.quota_key(), b.quota_key());
    assert!(a.quota_key().starts_with("key:") && !a.quota_key().contains("alpha"));
    let health = Request::get("/health").body(Body::empty()).unwrap();
    assert!(g.check(&health).is_ok());
}

#[test]
fn a_websocket_handshake_may_carry_its_key_as_a_subprotocol() {
    let g = Guard::new(
        GuardConfig {
            keys: vec!["alpha key/1".into()],
            ..GuardConfig::default()
        },
        respond,
    );
    let get = |protocols: &str| {
        Request::get("/x")
            .header("sec-websocket-protocol", protocols)
            .body(Body::empty())
            .unwrap()
    };
    let hex: String = "alpha key/1".bytes().map(|b| format!("{b:02x}")).collect();
    let with_key = format!("sentience, {}{hex}", crate::KEY_SUBPROTOCOL_PREFIX);
    let by_header = g
        .check(&request(&[("authorization", "Bearer alpha key/1")]))
        .unwrap();
    assert_eq!(g.check(&get(&with_key)).unwrap(), by_header);
    for bad in [
        "sentience".to_string(),
        format!("sentience, sentience.key.{}", &hex[..hex.len() - 1]),
        "sentience.key.zz".to_string(),
        "sentience.key.616c706861".to_string(), // "alpha"
    ] {
        assert_eq!(g.check(&get(&bad)), Err(Refusal::Unauthorized), "{bad}");
    }
    // Only on a GET (a handshake), not on a request that changes something.
    let mut post = request(&[]);
    post.headers_mut()
        .insert("sec-websocket-protocol", with_key.parse().unwrap());
    assert_eq!(g.check(&post), Err(Refusal::Unauthorized));
}

#[test]
fn the_rate_is_counted_per_caller_and_says_when_to_retry() {
    let g = Guard::new(
        GuardConfig {
            keys: vec!["alpha".into(), "beta".into()],
            rate: RateLimit::new(1, Some(2)),
            ..GuardConfig::default()
        },
        respond,
    );
    let alpha = || request(&[("authorization", "Bearer alpha")]);
    assert!(g.check(&alpha()).is_ok());
    assert!(g.check(&alpha()).is_ok());
    let refused = g.check(&alpha()).unwrap_err();
    assert!(matches!(refused, Refusal::RateLimited(_)));
    assert_eq!(refused.retry_after_secs(), Some(1));
    // Another key has its own bucket.
    assert!(g
        .check(&request(&[("authorization", "Bearer beta")]))
        .is_ok());
    let res = g.refuse(&refused, "/x");
    assert_eq!(res.status(), 429);
    assert_eq!(res.headers()["retry-after"], "1");
}

#[test]
fn a_non_loopback_bind_needs_a_key() {
    let lan: std::net::IpAddr = "0.0.0.0".parse().unwrap();
    let e = crate::check_bind(lan, false, "the agent server", "--api-key").unwrap_err();
    assert!(e.to_string().contains("--api-key"), "{e}");
    assert!(crate::check_bind(lan, true, "x", "--api-key").is_ok());
    assert!(crate::check_bind("127.0.0.1".parse().unwrap(), false, "x", "--api-key").is_ok());
    assert!(crate::check_bind("::1".parse().unwrap(), false, "x", "--api-key").is_ok());
}
