use crate::config::HandsConfig;
use crate::loop_detect::{ActionRecord, LoopDetector, LoopKind, Workaround};

fn click(x: f64, y: f64) -> ActionRecord {
    ActionRecord {
        kind: "click".into(),
        x: Some(x),
        y: Some(y),
        ..Default::default()
    }
}

fn detector(actions: &[ActionRecord]) -> LoopDetector {
    let mut d = LoopDetector::new(HandsConfig::default());
    for a in actions {
        d.add_action(a.clone());
    }
    d
}

#[test]
fn two_clicks_at_one_place_are_not_a_loop_three_are() {
    assert!(!detector(&[click(100.0, 100.0), click(100.0, 100.0)]).detect_loop());
    let d = detector(&[
        click(100.0, 100.0),
        click(100.0, 100.0),
        click(100.0, 100.0),
    ]);
    assert!(d.detect_loop());
    let r = d.detect().expect("loop");
    assert_eq!(r.kind, LoopKind::RepeatedClick);
    assert_eq!(r.workarounds, Workaround::ALL.to_vec());
}

#[test]
fn clicks_spread_49_px_loop_51_px_do_not() {
    // x range 49 → loop; 51 → no loop (spec: xRange < 50 && yRange < 50).
    assert!(detector(&[click(100.0, 10.0), click(149.0, 10.0), click(120.0, 10.0)]).detect_loop());
    assert!(!detector(&[click(100.0, 10.0), click(151.0, 10.0), click(120.0, 10.0)]).detect_loop());
    // Same in y.
    assert!(detector(&[click(10.0, 100.0), click(10.0, 149.0), click(10.0, 120.0)]).detect_loop());
    assert!(!detector(&[click(10.0, 100.0), click(10.0, 151.0), click(10.0, 120.0)]).detect_loop());
    // Exactly 50 is not "< 50".
    assert!(!detector(&[click(100.0, 10.0), click(150.0, 10.0), click(120.0, 10.0)]).detect_loop());
}

#[test]
fn only_the_last_three_of_one_type_count() {
    let scroll = ActionRecord {
        kind: "scroll".into(),
        ..Default::default()
    };
    // A different type among the last three: no loop.
    assert!(!detector(&[click(1.0, 1.0), click(1.0, 1.0), scroll.clone()]).detect_loop());
    // Three scrolls are the same type but not clicks: the spec does not call it a loop.
    assert!(!detector(&[scroll.clone(), scroll.clone(), scroll]).detect_loop());
    // Older far clicks do not matter.
    assert!(detector(&[
        click(900.0, 900.0),
        click(1.0, 1.0),
        click(2.0, 2.0),
        click(3.0, 3.0)
    ])
    .detect_loop());
}

#[test]
fn history_keeps_the_last_ten() {
    let mut d = LoopDetector::new(HandsConfig::default());
    for i in 0..25 {
        d.add_action(click(f64::from(i) * 100.0, 0.0));
    }
    assert_eq!(d.history().count(), 10);
    assert_eq!(d.history().next().and_then(|a| a.x), Some(1500.0));
}

#[test]
fn thresholds_come_from_the_config() {
    let cfg = HandsConfig {
        loop_repeat: 2,
        loop_click_radius_px: 10.0,
        ..Default::default()
    };
    let mut d = LoopDetector::new(cfg);
    d.add_action(click(0.0, 0.0));
    d.add_action(click(9.0, 0.0));
    assert!(d.detect_loop());
    d.add_action(click(20.0, 0.0));
    assert!(!d.detect_loop());
}

fn typing(text: &str, selector: &str) -> ActionRecord {
    ActionRecord {
        kind: "type".into(),
        text: Some(text.into()),
        selector: Some(selector.into()),
        ..Default::default()
    }
}

#[test]
fn the_same_text_typed_three_times_into_the_same_field_is_a_loop() {
    let t = typing("alice", "#user");
    assert!(!detector(&[t.clone(), t.clone()]).detect_loop());
    let d = detector(&[t.clone(), t.clone(), t.clone()]);
    assert_eq!(d.detect().map(|r| r.kind), Some(LoopKind::RepeatedTyping));
    assert!(!detector(&[t.clone(), t.clone(), typing("bob", "#user")]).detect_loop());
    assert!(!detector(&[t.clone(), t.clone(), typing("alice", "#pass")]).detect_loop());
}

#[test]
fn three_actions_that_leave_the_page_unchanged_are_a_loop() {
    let same = |kind: &str, x: f64| ActionRecord {
        kind: kind.into(),
        x: Some(x),
        y: Some(0.0),
        page_before: Some("p1".into()),
        page_after: Some("p1".into()),
        ..Default::default()
    };
    // Far apart and of different types: only "nothing changed" catches it.
    let acts = [
        same("click", 0.0),
        same("scroll", 500.0),
        same("click", 900.0),
    ];
    assert!(!detector(&acts[..2]).detect_loop());
    let d = detector(&acts);
    assert_eq!(d.detect().map(|r| r.kind), Some(LoopKind::PageUnchanged));
    // One action that changed the page breaks it.
    let mut changed = same("click", 400.0);
    changed.page_after = Some("p2".into());
    assert!(!detector(&[acts[0].clone(), changed, acts[2].clone()]).detect_loop());
}

#[test]
fn workarounds_are_the_specs_four_and_serialise_as_names() {
    let d = detector(&[]);
    let w = serde_json::to_value(d.suggested_workarounds()).expect("json");
    assert_eq!(
        w,
        serde_json::json!([
            "double_click",
            "scroll_into_view",
            "check_iframe",
            "different_selector"
        ])
    );
}
