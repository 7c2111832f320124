//! The desktop behind the routes: one small trait, so that routes know
//! screen pixels but not X11. The X11 implementation (XTest input,
//! GetImage capture, the CLIPBOARD selection) is in `x11`.
//! Calls are blocking. Input (click, scroll, keypress) is a few requests
//! and one round trip, each wait bounded by the connection's time limit:
//! routes make those calls on the request's own task (a hop to the
//! blocking pool cost a fifth of a click, docs/tools.md "Latency").
//! Capture, typing and pasting (which waits for the target application)
//! go to the blocking pool with a timeout.

pub mod x11;
mod x11_keys;
mod x11_stream;

use crate::browser::ClickKind;
use crate::error::ToolResult;
use crate::geometry::{Point, Size};
use crate::keys::KeyCombo;
use image::RgbaImage;

pub trait Desktop: Send + Sync {
    /// What executes desktop input, for `executed_with` (e.g. `xtest`).
    fn driver_name(&self) -> &'static str;
    /// Known without a round trip (the connection's setup, then the
    /// server's announcements): callers may call it on an async thread.
    fn screen_size(&self) -> ToolResult<Size>;
    fn capture(&self) -> ToolResult<RgbaImage>;
    fn pixel(&self, at: Point) -> ToolResult<[u8; 3]>;
    fn click(&self, at: Point, kind: ClickKind) -> ToolResult<()>;
    /// Wheel clicks: positive `dy` scrolls down, positive `dx` right.
    fn scroll(&self, dx: i32, dy: i32) -> ToolResult<()>;
    /// Types text with the keys of the active layout; characters no key
    /// produces are pasted. Returns how many characters were pasted.
    fn type_keystrokes(&self, text: &str) -> ToolResult<usize>;
    /// Pastes text through the clipboard (Ctrl+V), restoring the user's
    /// clipboard content afterwards.
    fn paste(&self, text: &str) -> ToolResult<()>;
    fn keypress(&self, combo: &KeyCombo) -> ToolResult<()>;
}
