//! Key names and combinations of /keypress (docs/contracts/tools.md §10:
//! `Enter`, `Escape`, `ArrowUp`, …, `Ctrl+C`, `Alt+Tab`, `Ctrl+Shift+T`).
//! Parsed once here into DOM `KeyboardEvent.key` names; the browser and the
//! desktop backends map those to CDP key events and X keysyms.

use crate::error::{ToolError, ToolResult};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Modifier {
    Ctrl,
    Shift,
    Alt,
    Meta,
}

impl Modifier {
    /// The DOM key name.
    pub fn key(self) -> &'static str {
        match self {
            Modifier::Ctrl => "Control",
            Modifier::Shift => "Shift",
            Modifier::Alt => "Alt",
            Modifier::Meta => "Meta",
        }
    }

    /// CDP `Input.dispatchKeyEvent` modifier bit.
    pub fn cdp_bit(self) -> i64 {
        match self {
            Modifier::Alt => 1,
            Modifier::Ctrl => 2,
            Modifier::Meta => 4,
            Modifier::Shift => 8,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyCombo {
    pub modifiers: Vec<Modifier>,
    /// A DOM key name (`Enter`, `ArrowUp`, `F5`) or a single character.
    pub key: String,
}

impl KeyCombo {
    pub fn cdp_modifiers(&self) -> i64 {
        self.modifiers.iter().map(|m| m.cdp_bit()).sum()
    }
}

fn modifier(name: &str) -> Option<Modifier> {
    Some(match name.to_ascii_lowercase().as_str() {
        "ctrl" | "control" | "ctl" => Modifier::Ctrl,
        "shift" => Modifier::Shift,
        "alt" | "option" | "opt" | "altgr" => Modifier::Alt,
        "meta" | "cmd" | "command" | "win" | "windows" | "super" => Modifier::Meta,
        _ => return None,
    })
}

/// Named keys, with the aliases people (and pyautogui) use.
const NAMED: &[(&str, &[&str])] = &[
    ("Enter", &["enter", "return"]),
    ("Escape", &["escape", "esc"]),
    ("Tab", &["tab"]),
    ("Backspace", &["backspace", "back"]),
    ("Delete", &["delete", "del"]),
    ("Insert", &["insert", "ins"]),
    ("ArrowUp", &["arrowup", "up"]),
    ("ArrowDown", &["arrowdown", "down"]),
    ("ArrowLeft", &["arrowleft", "left"]),
    ("ArrowRight", &["arrowright", "right"]),
    ("Home", &["home"]),
    ("End", &["end"]),
    ("PageUp", &["pageup", "pgup"]),
    ("PageDown", &["pagedown", "pgdn"]),
    (" ", &["space", "spacebar"]),
    ("CapsLock", &["capslock"]),
    ("ContextMenu", &["contextmenu", "menu", "apps"]),
    ("PrintScreen", &["printscreen", "prtsc"]),
];

fn key_name(name: &str) -> Option<String> {
    if name.chars().count() == 1 {
        return Some(name.to_string());
    }
    let lower = name.to_ascii_lowercase();
    if let Some((canonical, _)) = NAMED
        .iter()
        .find(|(_, aliases)| aliases.contains(&lower.as_str()))
    {
        return Some((*canonical).to_string());
    }
    if let Some(n) = lower.strip_prefix('f').and_then(|n| n.parse::<u8>().ok()) {
        if (1..=24).contains(&n) {
            return Some(format!("F{n}"));
        }
    }
    // A lone modifier pressed on its own ("Shift").
    modifier(name).map(|m| m.key().to_string())
}

/// Parses `Enter`, `a`, `Ctrl+C`, `ctrl+shift+t`, `Ctrl++`.
pub fn parse(spec: &str) -> ToolResult<KeyCombo> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Err(ToolError::bad_request(
            "Missing key: give a key such as \"Enter\" or \"Ctrl+C\"",
        ));
    }
    let mut parts: Vec<&str> = if spec == "+" {
        vec!["+"]
    } else if let Some(head) = spec.strip_suffix("++") {
        let mut v: Vec<&str> = head.split('+').collect();
        v.push("+");
        v
    } else {
        spec.split('+').collect()
    };
    let last = parts.pop().unwrap_or_default();
    let mut modifiers = Vec::new();
    for p in parts {
        let m = modifier(p.trim()).ok_or_else(|| {
            ToolError::bad_request(format!(
                "Unknown modifier {p:?} in {spec:?} (use Ctrl, Shift, Alt or Meta)"
            ))
        })?;
        if !modifiers.contains(&m) {
            modifiers.push(m);
        }
    }
    modifiers.sort();
    let key = key_name(last.trim())
        .ok_or_else(|| ToolError::bad_request(format!("Unknown key {last:?} in {spec:?}")))?;
    Ok(KeyCombo { modifiers, key })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
