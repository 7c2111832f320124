//! Trusted input over CDP (`Input.dispatch*`): the page receives real
//! pointer and keyboard events (`isTrusted`), at viewport CSS coordinates.
//! These functions only build the events; `input_channel` sends a whole
//! action in one write and waits for Chromium to have handled it.

use super::ClickKind;
use crate::geometry::Point;
use crate::keys::{KeyCombo, Modifier};
use chromiumoxide::keys::USKEYBOARD_LAYOUT;
use serde_json::{json, Value};

/// A CDP command: method and parameters.
pub(crate) type Event = (&'static str, Value);

fn mouse(kind: &str, at: Point, button: &str, count: i64) -> Event {
    // `buttons` is the state after the event, as on a real mouse (and as
    // Playwright sends it): pressed while down, none after the release.
    let buttons = match (kind, button) {
        ("mousePressed", "left") => 1,
        ("mousePressed", "right") => 2,
        _ => 0,
    };
    (
        "Input.dispatchMouseEvent",
        json!({"type": kind, "x": at.x, "y": at.y, "button": button, "buttons": buttons, "clickCount": count}),
    )
}

/// A click: the pointer moves to the point, then one press/release pair
/// per click. A double click is two pairs with rising clickCount, as a real
/// mouse produces (click, click, dblclick). Sent together, the press makes
/// Chromium handle the move at once (a lone move is handled at the page's
/// next frame, up to 16.7 ms later).
pub(crate) fn click(at: Point, kind: ClickKind) -> Vec<Event> {
    let (button, presses) = match kind {
        ClickKind::Single => ("left", 1),
        ClickKind::Double => ("left", 2),
        ClickKind::Right => ("right", 1),
    };
    let mut events = vec![mouse("mouseMoved", at, "none", 0)];
    for count in 1..=presses {
        events.push(mouse("mousePressed", at, button, count));
        events.push(mouse("mouseReleased", at, button, count));
    }
    events
}

pub(crate) fn wheel(at: Point, dx: f64, dy: f64) -> Event {
    (
        "Input.dispatchMouseEvent",
        json!({"type": "mouseWheel", "x": at.x, "y": at.y, "deltaX": dx, "deltaY": dy}),
    )
}

struct KeyDef {
    key: String,
    code: String,
    key_code: i64,
    text: Option<String>,
}

fn key_def(key: &str) -> Option<KeyDef> {
    let d = USKEYBOARD_LAYOUT.iter().find(|d| d.key == key)?;
    let text = d
        .text
        .map(String::from)
        .or_else(|| (key.chars().count() == 1).then(|| key.to_string()));
    Some(KeyDef {
        key: d.key.to_string(),
        code: d.code.to_string(),
        key_code: d.key_code,
        text,
    })
}

fn key_event(kind: &str, d: &KeyDef, modifiers: i64, with_text: bool) -> Event {
    let mut p = json!({
        "type": kind, "key": d.key, "code": d.code, "modifiers": modifiers,
        "windowsVirtualKeyCode": d.key_code, "nativeVirtualKeyCode": d.key_code,
    });
    if with_text {
        if let Some(t) = &d.text {
            p["text"] = Value::from(t.as_str());
            p["unmodifiedText"] = Value::from(t.as_str());
        }
    }
    ("Input.dispatchKeyEvent", p)
}

/// Types `text`: characters of the US layout as key down/up pairs (the page
/// sees keydown, keypress, input, keyup), any other character (accents,
/// emoji) as inserted text, which is what a keyboard's IME produces.
pub(crate) fn typing(text: &str) -> Vec<Event> {
    let mut buf = [0u8; 4];
    let mut events = Vec::with_capacity(text.len() * 2);
    for ch in text.chars() {
        let s: &str = if ch == '\n' {
            "Enter"
        } else {
            ch.encode_utf8(&mut buf)
        };
        match key_def(s) {
            Some(d) => {
                events.push(key_event("keyDown", &d, 0, true));
                events.push(key_event("keyUp", &d, 0, false));
            }
            None => events.push(("Input.insertText", json!({"text": s}))),
        }
    }
    events
}

/// A combination: modifiers down in order, the key, then all up in
/// reverse. Text is produced only without Ctrl/Alt/Meta, as on a keyboard.
pub(crate) fn keypress(combo: &KeyCombo) -> Vec<Event> {
    let mut events = Vec::new();
    let mut modifiers = 0;
    let mut held = Vec::new();
    for m in &combo.modifiers {
        if let Some(d) = key_def(m.key()) {
            modifiers |= m.cdp_bit();
            events.push(key_event("rawKeyDown", &d, modifiers, false));
            held.push((d, m.cdp_bit()));
        }
    }
    let d = key_def(&combo.key).unwrap_or_else(|| KeyDef {
        key: combo.key.clone(),
        code: String::new(),
        key_code: 0,
        text: None,
    });
    let produces_text = modifiers & (1 | 2 | 4) == 0 && d.text.is_some();
    let down = if produces_text {
        "keyDown"
    } else {
        "rawKeyDown"
    };
    let mut key_down = key_event(down, &d, modifiers, produces_text);
    if is_select_all(combo) {
        key_down.1["commands"] = json!(["selectAll"]);
    }
    events.push(key_down);
    events.push(key_event("keyUp", &d, modifiers, false));
    for (d, bit) in held.into_iter().rev() {
        modifiers &= !bit;
        events.push(key_event("keyUp", &d, modifiers, false));
    }
    events
}

/// Ctrl+A or Meta+A alone. Select-all is Ctrl+A on Linux and Windows but
/// Cmd+A on macOS, and a key event made over CDP on macOS runs no native key
/// binding at all, so the shortcut alone selects nothing there. CDP's
/// editing `commands` run with the key event on every platform: either
/// combination selects all wherever Chromium runs, so a client's "select the
/// field, then type" (crates/hands) needs no platform of its own. Where the
/// shortcut already selects, the command selects again: selecting all is
/// idempotent, which is why no other shortcut (undo, paste) gets a command.
fn is_select_all(combo: &KeyCombo) -> bool {
    combo.key.eq_ignore_ascii_case("a")
        && matches!(
            combo.modifiers.as_slice(),
            [Modifier::Ctrl] | [Modifier::Meta]
        )
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
