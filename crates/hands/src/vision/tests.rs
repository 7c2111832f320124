use crate::io::Response;
use crate::providers::{
    GeminiProvider, LocateRequest, Located, LuxProvider, OpenAiProvider, Provider,
};
use crate::test_support::*;
use crate::vision::*;
use crate::{HandsConfig, ToolClient};
use serde_json::{json, Value};

fn hints(ui: Option<&str>, small: bool, form: bool) -> TaskHints {
    TaskHints {
        ui_type: ui.map(str::to_string),
        has_small_text: small,
        has_complex_form: form,
    }
}
fn ctx(scope: &str, app: Option<&str>) -> VisionContext {
    VisionContext {
        scope: scope.into(),
        app: app.map(str::to_string),
    }
}

#[test]
fn the_specs_rules_in_order() {
    // Desktop first, whatever else.
    assert_eq!(
        choose_vision_provider(&hints(Some("custom"), true, true), &ctx("desktop", None)),
        Choice::Lux
    );
    assert_eq!(
        choose_vision_provider(
            &hints(Some("artistic"), true, false),
            &ctx("browser", Some("excel"))
        ),
        Choice::Gemini
    );
    for app in ["excel", "Outlook", "windows"] {
        assert_eq!(
            choose_vision_provider(&hints(None, true, false), &ctx("browser", Some(app))),
            Choice::Lux,
            "{app}"
        );
    }
    assert_eq!(
        choose_vision_provider(&hints(None, true, false), &ctx("browser", None)),
        Choice::Both
    );
    assert_eq!(
        choose_vision_provider(&hints(None, false, true), &ctx("browser", Some("word"))),
        Choice::Both
    );
    assert_eq!(
        choose_vision_provider(
            &hints(Some("standard"), false, false),
            &ctx("browser", None)
        ),
        Choice::Gemini
    );
}

fn req() -> LocateRequest {
    LocateRequest {
        instruction: "Click Send".into(),
        image_base64: "AAAA".into(),
        width: 1260.0,
        height: 700.0,
        scale_x: 1.016,
        scale_y: 1.029,
        scope: "browser".into(),
        ..Default::default()
    }
}

/// Lux at /lux, an OpenAI-compatible model at /v1, Gemini at /gemini; each
/// answers the point given (or fails when None).
fn providers(lux: Option<(f64, f64)>, other: Option<(f64, f64)>) -> FakeHttp {
    FakeHttp::new(move |r| {
        let p = path_of(r);
        let fail = || {
            Ok(Response {
                status: 503,
                body: json!({"error": {"message": "overloaded"}}),
            })
        };
        if p == "/lux" {
            return lux.map_or_else(fail, |(x, y)| ok(json!({"x": x, "y": y})));
        }
        if p == "/v1/chat/completions" {
            return other.map_or_else(fail, |(x, y)| ok(json!({"choices": [{"message": {"content": format!("```json\n{{\"x\": {x}, \"y\": {y}}}\n```")}}]})));
        }
        if p.starts_with("/gemini/models/") {
            // Gemini's [y, x] on 0..1000.
            return other.map_or_else(fail, |(x, y)| ok(json!({"candidates": [{"content": {"parts": [{"text": format!("{{\"point\": [{}, {}]}}", y / 700.0 * 1000.0, x / 1260.0 * 1000.0)}]}}]})));
        }
        ok(json!({"success": false, "error": "no snapshot here"}))
    })
}

fn set() -> VisionSet {
    VisionSet {
        lux: Provider::Lux(LuxProvider {
            url: "http://lux/lux".into(),
            api_key: Some("k".into()),
        }),
        gemini: Provider::OpenAi(OpenAiProvider {
            base_url: "http://model/v1".into(),
            api_key: None,
            model: "m".into(),
        }),
        referee: None,
    }
}

fn run(http: &FakeHttp, set: &VisionSet, choice: Choice) -> Coordinates {
    let tools = ToolClient::new(http, "http://tools");
    block_on(get_coordinates_with_fallback(
        &tools,
        set,
        choice,
        &req(),
        &HandsConfig::default(),
    ))
}

#[test]
fn both_agree_under_30_px_and_conflict_over() {
    // 29 px apart → high confidence, the lux point.
    let c = run(
        &providers(Some((100.0, 100.0)), Some((129.0, 100.0))),
        &set(),
        Choice::Both,
    );
    let v = serde_json::to_value(&c).expect("json");
    assert_eq!(v["confidence"], json!("high"));
    assert_eq!(v["agreedBy"], json!(["lux", "gemini"]));
    assert_eq!(v["point"]["x"], json!(100.0));
    // 31 px apart → the spec's conflict.
    let c = run(
        &providers(Some((100.0, 100.0)), Some((100.0, 131.0))),
        &set(),
        Choice::Both,
    );
    let v = serde_json::to_value(&c).expect("json");
    assert_eq!(v["conflict"], json!(true));
    assert_eq!(v["needsAgentB"], json!(true));
    assert_eq!(v["luxResult"]["y"], json!(100.0));
    assert_eq!(v["geminiResult"]["y"], json!(131.0));
    // Exactly 30 is not "< 30"; the diagonal counts (21, 21) ≈ 29.7 agrees.
    assert!(matches!(
        run(
            &providers(Some((0.0, 0.0)), Some((30.0, 0.0))),
            &set(),
            Choice::Both
        ),
        Coordinates::Conflict { .. }
    ));
    assert!(matches!(
        run(
            &providers(Some((0.0, 0.0)), Some((21.0, 21.0))),
            &set(),
            Choice::Both
        ),
        Coordinates::Agreed { .. }
    ));
}

#[test]
fn a_failing_provider_falls_back_to_the_other() {
    let c = run(&providers(None, Some((50.0, 60.0))), &set(), Choice::Lux);
    let Coordinates::Single {
        point,
        fallback_from,
    } = c
    else {
        panic!("expected a single answer")
    };
    assert_eq!(
        (point.x, point.y, point.provider.as_str()),
        (50.0, 60.0, "openai")
    );
    assert_eq!(
        fallback_from.map(|e| e.to_string()),
        Some("lux: HTTP 503 overloaded".into())
    );
    // And the other way round.
    let c = run(&providers(Some((7.0, 8.0)), None), &set(), Choice::Gemini);
    assert_eq!(c.point().map(|p| p.provider.clone()), Some("lux".into()));
    // Both failing says why, each.
    let c = run(&providers(None, None), &set(), Choice::Gemini);
    let Coordinates::Failed { errors } = c else {
        panic!("expected failure")
    };
    assert_eq!(errors.len(), 2);
    // In `both` mode one answer is still an answer.
    let c = run(&providers(None, Some((1.0, 2.0))), &set(), Choice::Both);
    assert!(matches!(
        c,
        Coordinates::Single {
            fallback_from: Some(_),
            ..
        }
    ));
}

#[test]
fn gemini_points_are_converted_from_its_0_1000_grid() {
    let http = providers(None, Some((630.0, 350.0)));
    let s = VisionSet {
        lux: Provider::Gemini(GeminiProvider {
            base_url: "http://g/gemini".into(),
            api_key: Some("k".into()),
            model: "gm".into(),
        }),
        gemini: Provider::Dom,
        referee: None,
    };
    let p = run(&http, &s, Choice::Lux).point().cloned().expect("point");
    assert!(
        (p.x - 630.0).abs() < 1e-6 && (p.y - 350.0).abs() < 1e-6,
        "{p:?}"
    );
    let sent = &http.log.borrow()[0];
    assert_eq!(sent.url, "http://g/gemini/models/gm:generateContent");
    assert_eq!(
        sent.body
            .as_ref()
            .map(|b| b["contents"][0]["parts"][1]["inline_data"]["data"].clone()),
        Some(json!("AAAA"))
    );
}

#[test]
fn a_point_outside_the_image_is_an_error() {
    let c = run(&providers(Some((1300.0, 10.0)), None), &set(), Choice::Lux);
    assert!(matches!(c, Coordinates::Failed { .. }));
}

#[test]
fn lux_gets_the_specs_request() {
    let http = providers(Some((1.0, 1.0)), None);
    run(&http, &set(), Choice::Lux);
    let sent = &http.log.borrow()[0];
    assert_eq!(
        sent.body,
        Some(json!({"image": "AAAA", "task": "Click Send"}))
    );
    assert_eq!(
        sent.headers,
        vec![("Authorization".to_string(), "Bearer k".to_string())]
    );
}

#[test]
fn env_fills_the_slots() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |k: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    };
    let s = VisionSet::from_env(env(&[])).expect("set");
    assert_eq!(
        (s.lux.clone(), s.gemini.clone(), s.referee.clone()),
        (Provider::Dom, Provider::Dom, None)
    );
    let s = VisionSet::from_env(env(&[
        ("LUX_API_URL", "http://l"),
        ("VISION_API_URL", "http://v"),
    ]))
    .expect("set");
    assert!(matches!(s.lux, Provider::Lux(_)) && matches!(s.gemini, Provider::OpenAi(_)));
    assert_eq!(s.referee, Some(Provider::Dom));
    assert!(VisionSet::from_env(env(&[("HANDS_LUX_PROVIDER", "lux")])).is_err());
    assert!(VisionSet::from_env(env(&[("HANDS_LUX_PROVIDER", "nope")])).is_err());
}

fn page() -> Value {
    json!({"status": "success", "url": "http://p/", "elements": [
        {"id": 1, "role": "button", "text": "Cancel", "bbox": {"x": 100, "y": 400, "width": 100, "height": 40}, "in_viewport": true, "is_occluded": false},
        {"id": 2, "role": "button", "text": "Send", "bbox": {"x": 600, "y": 400, "width": 100, "height": 40}, "in_viewport": true, "is_occluded": false},
        {"id": 3, "role": "button", "text": "Send hidden", "bbox": {"x": 0, "y": 0, "width": 10, "height": 10}, "in_viewport": false, "is_occluded": false}
    ]})
}

#[test]
fn the_dom_provider_grounds_the_instruction_on_the_snapshot() {
    let http = FakeHttp::new(|r| {
        if path_of(r) == "/browser/snapshot" {
            ok(page())
        } else {
            ok(json!({}))
        }
    });
    let s = VisionSet {
        lux: Provider::Dom,
        gemini: Provider::Dom,
        referee: None,
    };
    let p = run(&http, &s, Choice::Gemini)
        .point()
        .cloned()
        .expect("point");
    assert_eq!(
        (p.x, p.y, p.coordinate_origin.as_str(), p.provider.as_str()),
        (650.0, 420.0, "viewport", "dom")
    );
}

#[test]
fn the_dom_referee_settles_a_conflict() {
    // Lux says Send (in lux space: 650/1.016, 420/1.029), the model says Cancel.
    let lux_send = (650.0 / 1.016, 420.0 / 1.029);
    let inner = providers(Some(lux_send), Some((150.0 / 1.016, 420.0 / 1.029)));
    let http = FakeHttp::new(move |r| {
        if path_of(r) == "/browser/snapshot" {
            ok(page())
        } else {
            (inner.script)(r)
        }
    });
    let mut s = set();
    s.referee = Some(Provider::Dom);
    let v = serde_json::to_value(run(&http, &s, Choice::Both)).expect("json");
    assert_eq!(v["confidence"], json!("medium"));
    assert_eq!(v["agreedBy"], json!(["lux", "dom"]));
}

#[test]
fn distance_compares_in_lux_space() {
    let a = Located {
        x: 101.6,
        y: 102.9,
        coordinate_origin: "viewport".into(),
        provider: "dom".into(),
        reasoning: None,
    };
    let b = Located {
        x: 100.0,
        y: 100.0,
        coordinate_origin: "lux_sdk".into(),
        provider: "lux".into(),
        reasoning: None,
    };
    assert!(distance(&a, &b, &req()) < 1e-6);
}
