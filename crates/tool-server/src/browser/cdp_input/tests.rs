use super::*;
use crate::keys;

fn kinds(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .map(|(m, p)| p["type"].as_str().unwrap_or(m).to_string())
        .collect()
}

#[test]
fn a_double_click_is_a_move_and_two_rising_pairs() {
    let e = click(Point { x: 3.0, y: 4.0 }, ClickKind::Double);
    assert_eq!(
        kinds(&e),
        [
            "mouseMoved",
            "mousePressed",
            "mouseReleased",
            "mousePressed",
            "mouseReleased"
        ]
    );
    let counts: Vec<i64> = e
        .iter()
        .map(|(_, p)| p["clickCount"].as_i64().unwrap())
        .collect();
    assert_eq!(counts, [0, 1, 1, 2, 2]);
    assert_eq!(e[1].1["buttons"], 1);
    assert_eq!(e[2].1["buttons"], 0);
}

#[test]
fn typing_keys_what_the_layout_has_and_inserts_the_rest() {
    let e = typing("aé\n");
    assert_eq!(
        kinds(&e),
        ["keyDown", "keyUp", "Input.insertText", "keyDown", "keyUp"]
    );
    assert_eq!(e[0].1["text"], "a");
    assert_eq!(e[2].1["text"], "é");
    assert_eq!(e[3].1["key"], "Enter");
}

#[test]
fn a_combination_releases_in_reverse_without_text() {
    let e = keypress(&keys::parse("Ctrl+Shift+T").unwrap());
    assert_eq!(
        kinds(&e),
        [
            "rawKeyDown",
            "rawKeyDown",
            "rawKeyDown",
            "keyUp",
            "keyUp",
            "keyUp"
        ]
    );
    assert_eq!(e[2].1["modifiers"], 10);
    assert!(e[2].1.get("text").is_none());
    assert_eq!(e[4].1["key"], "Shift");
    assert_eq!(e[5].1["modifiers"], 0);
}

#[test]
fn select_all_carries_the_editing_command_whatever_the_modifier() {
    for combo in ["Ctrl+A", "Meta+a", "Cmd+A"] {
        let e = keypress(&keys::parse(combo).unwrap());
        let down: Vec<_> = e
            .iter()
            .filter(|(_, p)| p.get("commands").is_some())
            .collect();
        assert_eq!(down.len(), 1, "{combo}: {e:?}");
        assert!(
            down[0].1["key"].as_str().unwrap().eq_ignore_ascii_case("a"),
            "{combo}"
        );
        assert_eq!(down[0].1["commands"], json!(["selectAll"]), "{combo}");
    }
    for other in ["Ctrl+Shift+A", "Alt+A", "Ctrl+Z", "A"] {
        let e = keypress(&keys::parse(other).unwrap());
        assert!(
            e.iter().all(|(_, p)| p.get("commands").is_none()),
            "{other}: {e:?}"
        );
    }
}
