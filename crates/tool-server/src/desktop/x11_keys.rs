//! Keys of the X11 desktop: keysyms of characters and key names, and the
//! server's keyboard mapping as "which key, with which modifiers, types
//! this keysym" (docs/tools.md "Desktop": typing follows the active
//! layout).

use super::x11::x_err;
use crate::error::ToolResult;
use crate::keys::Modifier;
use std::collections::HashMap;
use x11rb::connection::Connection;
use x11rb::protocol::xproto::ConnectionExt as _;

/// The keysym a character types (X11 keysym encoding: Latin-1 as is,
/// the rest of Unicode at 0x0100_0000 + code point).
pub(super) fn char_keysym(c: char) -> u32 {
    match c {
        '\n' | '\r' => 0xff0d,
        '\t' => 0xff09,
        c if (' '..='~').contains(&c) || ('\u{a0}'..='\u{ff}').contains(&c) => c as u32,
        c => 0x0100_0000 + c as u32,
    }
}

pub(super) fn named_keysym(key: &str) -> Option<u32> {
    Some(match key {
        "Enter" => 0xff0d,
        "Escape" => 0xff1b,
        "Tab" => 0xff09,
        "Backspace" => 0xff08,
        "Delete" => 0xffff,
        "Insert" => 0xff63,
        "Home" => 0xff50,
        "ArrowLeft" => 0xff51,
        "ArrowUp" => 0xff52,
        "ArrowRight" => 0xff53,
        "ArrowDown" => 0xff54,
        "PageUp" => 0xff55,
        "PageDown" => 0xff56,
        "End" => 0xff57,
        "CapsLock" => 0xffe5,
        "ContextMenu" => 0xff67,
        "PrintScreen" => 0xff61,
        "Control" => 0xffe3,
        "Shift" => 0xffe1,
        "Alt" => 0xffe9,
        "Meta" => 0xffeb,
        f if f.starts_with('F') => 0xffbe + f[1..].parse::<u32>().ok()?.checked_sub(1)?,
        _ => return None,
    })
}

pub(super) fn modifier_keysym(m: Modifier) -> u32 {
    match m {
        Modifier::Ctrl => 0xffe3,
        Modifier::Shift => 0xffe1,
        Modifier::Alt => 0xffe9,
        Modifier::Meta => 0xffeb,
    }
}

/// ISO_Level3_Shift: AltGr on layouts that have a third level (de: `@`
/// is AltGr+Q, fr: `@` is AltGr+à…).
pub(super) const LEVEL3_SHIFT: u32 = 0xfe03;
pub(super) const SHIFT: u32 = 0xffe1;

/// What to hold with a key to get a keysym of the first group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Level {
    shift: bool,
    altgr: bool,
}

/// keysym → (keycode, level), from the server's current mapping. The core
/// mapping of an XKB layout puts the first group's levels 1 and 2 in
/// columns 0 and 1, and its levels 3 and 4 (AltGr) in columns 4 and 5.
pub(super) struct KeyMap(HashMap<u32, (u8, Level)>);

impl KeyMap {
    pub(super) fn read(conn: &impl Connection) -> ToolResult<KeyMap> {
        let setup = conn.setup();
        let (min, max) = (setup.min_keycode, setup.max_keycode);
        let map = conn
            .get_keyboard_mapping(min, max - min + 1)
            .map_err(|e| x_err("keyboard mapping")(e.into()))?
            .reply()
            .map_err(|e| x_err("keyboard mapping")(e.into()))?;
        Ok(KeyMap::from_columns(
            min,
            usize::from(map.keysyms_per_keycode.max(1)),
            &map.keysyms,
        ))
    }

    fn from_columns(min: u8, per: usize, keysyms: &[u32]) -> KeyMap {
        let mut out = HashMap::new();
        // The fewest modifiers win: every key's plain levels first.
        let columns = [
            (0, false, false),
            (1, true, false),
            (4, false, true),
            (5, true, true),
        ];
        for (col, shift, altgr) in columns {
            for (i, syms) in keysyms.chunks(per).enumerate() {
                match syms.get(col) {
                    Some(&sym) if sym != 0 => {
                        let code = min.saturating_add(i as u8);
                        out.entry(sym).or_insert((code, Level { shift, altgr }));
                    }
                    _ => {}
                }
            }
        }
        KeyMap(out)
    }

    pub(super) fn code(&self, sym: u32) -> Option<u8> {
        self.0.get(&sym).map(|k| k.0)
    }

    /// The key presses and releases that type `sym`, modifiers included;
    /// None when no key of the layout (without AltGr when the layout has
    /// no AltGr key) types it.
    pub(super) fn strokes(&self, sym: u32) -> Option<Vec<(u8, bool)>> {
        let &(code, level) = self.0.get(&sym)?;
        let mut held = Vec::new();
        if level.altgr {
            held.push(self.code(LEVEL3_SHIFT)?);
        }
        if level.shift {
            held.push(self.code(SHIFT)?);
        }
        let mut out: Vec<(u8, bool)> = held.iter().map(|&c| (c, true)).collect();
        out.push((code, true));
        out.push((code, false));
        out.extend(held.iter().rev().map(|&c| (c, false)));
        Some(out)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
