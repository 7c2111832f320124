//! The X11 desktop: XTest for input, GetImage for capture, the CLIPBOARD
//! selection (arboard) for pasting. Typing looks keys up in the server's
//! current keyboard mapping, so it follows the active layout; characters
//! no key produces are pasted (docs/contracts/tools.md §8: the clipboard is "needed for
//! the Italian keyboard and special characters"), and the user's clipboard
//! content is put back afterwards (docs/tools.md "Desktop").

use super::x11_keys::{char_keysym, modifier_keysym, named_keysym, KeyMap, SHIFT};
use super::x11_stream::{self, XConnection};
use super::Desktop;
use crate::browser::ClickKind;
use crate::error::{ToolError, ToolResult};
use crate::geometry::{Point, Size};
use crate::keys::{KeyCombo, Modifier};
use image::RgbaImage;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{self, ConnectionExt as _, ImageFormat};
use x11rb::protocol::xtest::ConnectionExt as _;

/// How long a pasted text stays on the clipboard before the user's content
/// is restored: the target application fetches it asynchronously after
/// Ctrl+V, and X gives no signal that it has.
const PASTE_SETTLE: Duration = Duration::from_millis(300);

pub struct X11Desktop {
    conn: Mutex<XConnection>,
    root: xproto::Window,
    /// The root window's size: from the connection setup, then from the
    /// root's ConfigureNotify (a RandR resize), so that no call asks for it.
    size: Mutex<Size>,
    display: String,
    clipboard: Mutex<Option<arboard::Clipboard>>,
    /// The keyboard mapping, read again when the server announces a change
    /// (MappingNotify: setxkbmap, a layout switch).
    keymap: Mutex<Option<Arc<KeyMap>>>,
}

pub(super) fn x_err(what: &str) -> impl Fn(Box<dyn std::error::Error>) -> ToolError + '_ {
    move |e| ToolError::Backend(format!("X server: {what}: {e}"))
}

impl X11Desktop {
    /// Connects to `display` (or `$DISPLAY`); the error says why the
    /// desktop scope is unavailable, for /status.
    pub fn connect(display: Option<&str>) -> Result<X11Desktop, String> {
        let name = display
            .map(String::from)
            .or_else(|| std::env::var("DISPLAY").ok())
            .filter(|d| !d.is_empty());
        let Some(name) = name else {
            return Err("no X display (DISPLAY is not set)".into());
        };
        let (conn, screen_num) =
            x11_stream::connect(&name).map_err(|e| format!("cannot open X display {name}: {e}"))?;
        let screen = conn
            .setup()
            .roots
            .get(screen_num)
            .ok_or_else(|| format!("the X display {name} has no screen {screen_num}"))?;
        let (root, size) = (
            screen.root,
            Size {
                width: u32::from(screen.width_in_pixels),
                height: u32::from(screen.height_in_pixels),
            },
        );
        conn.xtest_get_version(2, 2)
            .map_err(|e| e.to_string())
            .and_then(|c| c.reply().map_err(|e| e.to_string()))
            .map_err(|e| format!("the X server {name} has no XTEST extension: {e}"))?;
        // The root's size changes are announced (ConfigureNotify) rather
        // than asked for on every call.
        let structure = xproto::ChangeWindowAttributesAux::new()
            .event_mask(xproto::EventMask::STRUCTURE_NOTIFY);
        conn.change_window_attributes(root, &structure)
            .map_err(|e| e.to_string())
            .and_then(|c| c.check().map_err(|e| e.to_string()))
            .map_err(|e| format!("cannot watch the X screen {name}: {e}"))?;
        Ok(X11Desktop {
            conn: Mutex::new(conn),
            root,
            size: Mutex::new(size),
            display: name,
            clipboard: Mutex::new(None),
            keymap: Mutex::new(None),
        })
    }

    pub fn display(&self) -> &str {
        &self.display
    }

    fn conn(&self) -> ToolResult<std::sync::MutexGuard<'_, XConnection>> {
        self.conn
            .lock()
            .map_err(|_| ToolError::Backend("X connection poisoned".into()))
    }

    fn fake(
        conn: &XConnection,
        root: xproto::Window,
        kind: u8,
        detail: u8,
        x: i16,
        y: i16,
    ) -> ToolResult<()> {
        conn.xtest_fake_input(kind, detail, x11rb::CURRENT_TIME, root, x, y, 0)
            .map_err(|e| x_err("XTest input")(e.into()))?;
        Ok(())
    }

    /// Takes the events the X server sent since the last call: a keyboard
    /// mapping change (MappingNotify, sent to every client: setxkbmap, a
    /// layout switch) drops the cached mapping; the root's ConfigureNotify
    /// gives the new screen size. No round trip: what already arrived.
    fn take_events(&self, conn: &XConnection) -> ToolResult<()> {
        use x11rb::protocol::Event;
        while let Ok(Some(event)) = conn.poll_for_event() {
            match event {
                Event::MappingNotify(_) => {
                    if let Ok(mut cached) = self.keymap.lock() {
                        *cached = None;
                    }
                }
                Event::ConfigureNotify(c) if c.window == self.root => {
                    if let Ok(mut size) = self.size.lock() {
                        *size = Size {
                            width: u32::from(c.width),
                            height: u32::from(c.height),
                        };
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The current keyboard mapping: cached, and read again after the X
    /// server announced a change.
    fn keymap(&self, conn: &XConnection) -> ToolResult<Arc<KeyMap>> {
        self.take_events(conn)?;
        let mut cached = self
            .keymap
            .lock()
            .map_err(|_| ToolError::Backend("keyboard mapping poisoned".into()))?;
        match &*cached {
            Some(map) => Ok(map.clone()),
            None => {
                let map = Arc::new(KeyMap::read(conn)?);
                *cached = Some(map.clone());
                Ok(map)
            }
        }
    }

    fn size(&self) -> ToolResult<Size> {
        self.size
            .lock()
            .map(|s| *s)
            .map_err(|_| ToolError::Backend("screen size poisoned".into()))
    }

    /// Waits until the server has processed everything sent so far.
    fn sync(conn: &XConnection) -> ToolResult<()> {
        conn.get_input_focus()
            .map_err(|e| x_err("sync")(e.into()))?
            .reply()
            .map_err(|e| x_err("sync")(e.into()))?;
        Ok(())
    }

    fn key(conn: &XConnection, root: xproto::Window, code: u8, down: bool) -> ToolResult<()> {
        let kind = if down {
            xproto::KEY_PRESS_EVENT
        } else {
            xproto::KEY_RELEASE_EVENT
        };
        Self::fake(conn, root, kind, code, 0, 0)
    }

    /// Modifiers down in order, the key (with Shift/AltGr when its level
    /// needs them and the combination does not hold them already), then
    /// all up in reverse.
    fn combo_strokes(map: &KeyMap, combo: &KeyCombo) -> ToolResult<Vec<(u8, bool)>> {
        let mut mods = Vec::new();
        for m in &combo.modifiers {
            let code = map.code(modifier_keysym(*m)).ok_or_else(|| {
                ToolError::Backend(format!("the keyboard has no {} key", m.key()))
            })?;
            mods.push(code);
        }
        let sym = match named_keysym(&combo.key) {
            Some(s) => s,
            None => {
                let mut chars = combo.key.chars();
                let c = chars.next().unwrap_or(' ');
                // With modifiers, a letter means its key (Ctrl+C is c's key).
                let c = if combo.modifiers.is_empty() {
                    c
                } else {
                    c.to_ascii_lowercase()
                };
                char_keysym(c)
            }
        };
        let mut key = map.strokes(sym).ok_or_else(|| {
            ToolError::bad_request(format!(
                "No key of the current keyboard layout types {:?}",
                combo.key
            ))
        })?;
        if combo.modifiers.contains(&Modifier::Shift) {
            let shift = map.code(SHIFT);
            key.retain(|(c, _)| Some(*c) != shift);
        }
        let mut out: Vec<(u8, bool)> = mods.iter().map(|&c| (c, true)).collect();
        out.extend(key);
        out.extend(mods.iter().rev().map(|&c| (c, false)));
        Ok(out)
    }

    fn strokes(&self, conn: &XConnection, strokes: &[(u8, bool)]) -> ToolResult<()> {
        for &(code, down) in strokes {
            Self::key(conn, self.root, code, down)?;
        }
        Ok(())
    }

    fn press_combo(&self, conn: &XConnection, combo: &KeyCombo) -> ToolResult<()> {
        let map = self.keymap(conn)?;
        self.strokes(conn, &Self::combo_strokes(&map, combo)?)?;
        Self::sync(conn)
    }

    fn clipboard_op<T>(
        &self,
        f: impl FnOnce(&mut arboard::Clipboard) -> Result<T, arboard::Error>,
    ) -> ToolResult<T> {
        let mut guard = self
            .clipboard
            .lock()
            .map_err(|_| ToolError::Backend("clipboard poisoned".into()))?;
        if guard.is_none() {
            // One clipboard for the server's life: it keeps serving what
            // it owns (the restored content) after each call.
            *guard = Some(
                arboard::Clipboard::new()
                    .map_err(|e| ToolError::backend("opening the clipboard", e))?,
            );
        }
        let cb = guard
            .as_mut()
            .ok_or_else(|| ToolError::Backend("no clipboard".into()))?;
        f(cb).map_err(|e| ToolError::backend("clipboard", e))
    }
}

/// The user's clipboard content before a paste, in the richest form that
/// can be put back (docs/tools.md "Desktop"): a file list (copied files), an
/// image, HTML with its plain text, or plain text. Other formats an
/// application offered beside these (its private ones) are not kept.
enum Saved {
    Files(Vec<std::path::PathBuf>),
    Image(arboard::ImageData<'static>),
    Html(String, Option<String>),
    Text(String),
    Nothing,
}

impl Saved {
    fn read(cb: &mut arboard::Clipboard) -> Saved {
        if let Ok(files) = cb.get().file_list() {
            if !files.is_empty() {
                return Saved::Files(files);
            }
        }
        if let Ok(image) = cb.get_image() {
            return Saved::Image(image);
        }
        if let Ok(html) = cb.get().html() {
            return Saved::Html(html, cb.get_text().ok());
        }
        match cb.get_text() {
            Ok(text) => Saved::Text(text),
            Err(_) => Saved::Nothing,
        }
    }

    fn restore(self, cb: &mut arboard::Clipboard) -> Result<(), arboard::Error> {
        match self {
            Saved::Files(files) => cb.set().file_list(&files),
            Saved::Image(image) => cb.set_image(image),
            Saved::Html(html, text) => cb.set().html(html, text),
            Saved::Text(text) => cb.set_text(text),
            Saved::Nothing => cb.clear(),
        }
    }
}

impl Desktop for X11Desktop {
    fn driver_name(&self) -> &'static str {
        "xtest"
    }

    fn screen_size(&self) -> ToolResult<Size> {
        self.take_events(&*self.conn()?)?;
        self.size()
    }

    fn capture(&self) -> ToolResult<RgbaImage> {
        let conn = self.conn()?;
        self.take_events(&conn)?;
        let size = self.size()?;
        let (w, h) = (size.width as u16, size.height as u16);
        let reply = conn
            .get_image(ImageFormat::Z_PIXMAP, self.root, 0, 0, w, h, !0)
            .map_err(|e| x_err("GetImage")(e.into()))?
            .reply()
            .map_err(|e| x_err("GetImage")(e.into()))?;
        drop(conn);
        if reply.depth != 24 && reply.depth != 32 {
            return Err(ToolError::Backend(format!(
                "unsupported X screen depth {}",
                reply.depth
            )));
        }
        let mut data = reply.data;
        if data.len() != usize::from(w) * usize::from(h) * 4 {
            return Err(ToolError::Backend("unexpected X image size".into()));
        }
        // 32-bit ZPixmap on a little-endian server is B, G, R, X.
        for px in data.chunks_exact_mut(4) {
            px.swap(0, 2);
            px[3] = 255;
        }
        RgbaImage::from_raw(u32::from(w), u32::from(h), data)
            .ok_or_else(|| ToolError::Backend("bad X image".into()))
    }

    fn pixel(&self, at: Point) -> ToolResult<[u8; 3]> {
        let conn = self.conn()?;
        let reply = conn
            .get_image(
                ImageFormat::Z_PIXMAP,
                self.root,
                at.x as i16,
                at.y as i16,
                1,
                1,
                !0,
            )
            .map_err(|e| x_err("GetImage")(e.into()))?
            .reply()
            .map_err(|e| x_err("GetImage")(e.into()))?;
        match reply.data.get(..3) {
            Some([b, g, r]) => Ok([*r, *g, *b]),
            _ => Err(ToolError::Backend("empty X image".into())),
        }
    }

    fn click(&self, at: Point, kind: ClickKind) -> ToolResult<()> {
        let conn = self.conn()?;
        let (x, y) = (at.x as i16, at.y as i16);
        Self::fake(&conn, self.root, xproto::MOTION_NOTIFY_EVENT, 0, x, y)?;
        let (button, times) = match kind {
            ClickKind::Single => (1, 1),
            ClickKind::Double => (1, 2),
            ClickKind::Right => (3, 1),
        };
        for _ in 0..times {
            Self::fake(&conn, self.root, xproto::BUTTON_PRESS_EVENT, button, x, y)?;
            Self::fake(&conn, self.root, xproto::BUTTON_RELEASE_EVENT, button, x, y)?;
        }
        Self::sync(&conn)
    }

    fn scroll(&self, dx: i32, dy: i32) -> ToolResult<()> {
        let conn = self.conn()?;
        // Buttons 4/5 scroll up/down, 6/7 left/right.
        let steps = [
            (if dy < 0 { 4 } else { 5 }, dy.unsigned_abs()),
            (if dx < 0 { 6 } else { 7 }, dx.unsigned_abs()),
        ];
        for (button, n) in steps {
            for _ in 0..n {
                Self::fake(&conn, self.root, xproto::BUTTON_PRESS_EVENT, button, 0, 0)?;
                Self::fake(&conn, self.root, xproto::BUTTON_RELEASE_EVENT, button, 0, 0)?;
            }
        }
        Self::sync(&conn)
    }

    fn type_keystrokes(&self, text: &str) -> ToolResult<usize> {
        let mut pasted = 0;
        let mut pending = String::new();
        let map = self.keymap(&*self.conn()?)?;
        // Keys are sent in runs and the server is synced once per run (it
        // handles requests in order); characters no key types are pasted
        // in between, in their place.
        let mut run: Vec<(u8, bool)> = Vec::new();
        for c in text.chars() {
            match map.strokes(char_keysym(c)) {
                Some(strokes) => {
                    if !pending.is_empty() {
                        pasted += pending.chars().count();
                        self.paste(&std::mem::take(&mut pending))?;
                    }
                    run.extend(strokes);
                }
                None => {
                    if !run.is_empty() {
                        let conn = self.conn()?;
                        self.strokes(&conn, &std::mem::take(&mut run))?;
                        Self::sync(&conn)?;
                    }
                    pending.push(c);
                }
            }
        }
        if !run.is_empty() {
            let conn = self.conn()?;
            self.strokes(&conn, &run)?;
            Self::sync(&conn)?;
        }
        if !pending.is_empty() {
            pasted += pending.chars().count();
            self.paste(&pending)?;
        }
        Ok(pasted)
    }

    fn paste(&self, text: &str) -> ToolResult<()> {
        let previous = self.clipboard_op(|cb| Ok(Saved::read(cb)))?;
        self.clipboard_op(|cb| cb.set_text(text.to_string()))?;
        let ctrl_v = KeyCombo {
            modifiers: vec![Modifier::Ctrl],
            key: "v".into(),
        };
        let pressed = self.press_combo(&*self.conn()?, &ctrl_v);
        std::thread::sleep(PASTE_SETTLE);
        self.clipboard_op(|cb| previous.restore(cb))?;
        pressed
    }

    fn keypress(&self, combo: &KeyCombo) -> ToolResult<()> {
        self.press_combo(&*self.conn()?, combo)
    }
}
