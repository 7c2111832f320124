//! The contract JSON written by hand: byte for byte what
//! `serde_json::to_string` makes of [`Snapshot`] and [`SnapshotError`] with
//! their serde derives (field order, compact form, serde_json's string
//! escapes, `null` for a non-finite float), without instantiating serde's
//! serializer for them in the WebAssembly. The derives stay, for host code
//! and as the reference `writer/tests.rs` compares against.

use crate::contract::{Checked, Element, ElementState, Snapshot, SnapshotError};

/// `serde_json::to_string(snapshot)`.
pub fn snapshot_to_json(s: &Snapshot) -> String {
    // Sized up front (elements run ~300 bytes each): growing a 700 KB buffer
    // by doubling copied it ~12 times, a tenth of the engine's time.
    let mut w = Writer {
        out: Vec::with_capacity(512 + 320 * s.elements.len()),
    };
    w.key_first("status");
    w.string(&s.status);
    w.key("timestamp");
    w.string(&s.timestamp);
    w.key("url");
    w.string(&s.url);
    w.key("viewport");
    w.key_first("width");
    w.float(s.viewport.width);
    w.key("height");
    w.float(s.viewport.height);
    w.raw("}");
    w.key("elements");
    w.raw("[");
    for (i, e) in s.elements.iter().enumerate() {
        if i > 0 {
            w.raw(",");
        }
        element(&mut w, e);
    }
    w.raw("]");
    if let Some(shot) = &s.screenshot {
        w.key("screenshot");
        w.string(shot);
    }
    if let Some(format) = &s.screenshot_format {
        w.key("screenshot_format");
        w.string(format);
    }
    let m = &s.meta;
    w.key("meta");
    w.key_first("elements_scanned");
    w.uint(m.elements_scanned);
    w.key("candidates");
    w.uint(m.candidates);
    w.key("filtered_out");
    w.uint(m.filtered_out);
    w.key("truncated_by_limit");
    w.uint(m.truncated_by_limit);
    w.key("engine_path");
    w.string(&m.engine_path);
    w.key("engine_version");
    w.string(&m.engine_version);
    if let Some(st) = &m.stability {
        w.key("stability");
        w.key_first("settled");
        w.bool(st.settled);
        w.key("waited_ms");
        w.uint(st.waited_ms);
        w.key("quiet_ms");
        w.uint(st.quiet_ms);
        w.key("timeout_ms");
        w.uint(st.timeout_ms);
        w.raw("}");
    }
    w.raw("}");
    if let Some(id) = s.snapshot_id {
        w.key("snapshot_id");
        w.uint(id);
    }
    if let Some(d) = &s.diff {
        w.key("diff");
        w.key_first("since");
        match d.since {
            Some(id) => w.uint(id),
            None => w.raw("null"),
        }
        for (name, ids) in [
            ("added", &d.added),
            ("removed", &d.removed),
            ("changed", &d.changed),
        ] {
            w.key(name);
            w.raw("[");
            for (i, id) in ids.iter().enumerate() {
                if i > 0 {
                    w.raw(",");
                }
                w.uint(*id);
            }
            w.raw("]");
        }
        w.raw("}");
    }
    if let Some(f) = &s.frames {
        w.key("frames");
        w.key_first("included");
        w.raw("[");
        for (i, frame) in f.included.iter().enumerate() {
            if i > 0 {
                w.raw(",");
            }
            w.key_first("url");
            w.string(&frame.url);
            w.key("depth");
            w.uint(frame.depth);
            w.key("via");
            w.string(&frame.via);
            w.raw("}");
        }
        w.raw("]");
        w.key("skipped");
        w.raw("[");
        for (i, frame) in f.skipped.iter().enumerate() {
            if i > 0 {
                w.raw(",");
            }
            w.key_first("url");
            w.string(&frame.url);
            w.key("reason");
            w.string(&frame.reason);
            w.raw("}");
        }
        w.raw("]}");
    }
    w.raw("}");
    w.finish()
}

/// `serde_json::to_string(error)`.
pub fn error_to_json(e: &SnapshotError) -> String {
    let mut w = Writer::default();
    w.key_first("status");
    w.string(&e.status);
    w.key("error");
    w.string(&e.error);
    if let Some(license) = e.requires_license {
        w.key("requires_license");
        w.bool(license);
    }
    w.raw("}");
    w.finish()
}

// One literal per run of constant text (keys, braces, commas): this runs
// for thousands of elements, and each literal is one bounds check and copy.
fn element(w: &mut Writer, e: &Element) {
    w.raw("{\"id\":");
    w.uint(e.id);
    w.raw(",\"role\":\"");
    w.raw(e.role.as_str()); // lower-case ASCII: nothing to escape
    w.raw("\",\"text\":");
    w.opt_string(e.text.as_deref());
    w.raw(",\"importance\":");
    w.int(e.importance);
    w.raw(",\"bbox\":{\"x\":");
    w.float(e.bbox.x);
    w.raw(",\"y\":");
    w.float(e.bbox.y);
    w.raw(",\"width\":");
    w.float(e.bbox.width);
    w.raw(",\"height\":");
    w.float(e.bbox.height);
    let cues = &e.visual_cues;
    w.raw(if cues.is_primary {
        "},\"visual_cues\":{\"is_primary\":true,\"background_color_name\":"
    } else {
        "},\"visual_cues\":{\"is_primary\":false,\"background_color_name\":"
    });
    w.opt_string(cues.background_color_name.as_deref());
    w.raw(",\"is_clickable\":");
    w.bool(cues.is_clickable);
    w.raw("},\"in_viewport\":");
    w.bool(e.in_viewport);
    w.raw(",\"is_occluded\":");
    w.bool(e.is_occluded);
    w.raw(",\"z_index\":");
    w.int(e.z_index);
    w.raw(",\"state\":");
    state(w, &e.state);
    w.raw("}");
}

/// Addition to docs/contracts/snapshot.md §11.1: keys in declaration order, absent ones skipped.
fn state(w: &mut Writer, s: &ElementState) {
    let mut first = true;
    w.state_bool(&mut first, "disabled", s.disabled);
    match s.checked {
        Some(Checked::Mixed(_)) => {
            w.state_key(&mut first, "checked");
            w.raw("\"mixed\"");
        }
        Some(Checked::Bool(b)) => w.state_bool(&mut first, "checked", Some(b)),
        None => {}
    }
    w.state_bool(&mut first, "selected", s.selected);
    w.state_bool(&mut first, "expanded", s.expanded);
    w.state_bool(&mut first, "required", s.required);
    if let Some(v) = &s.value {
        w.state_key(&mut first, "value");
        w.string(v);
    }
    if let Some(options) = &s.options {
        w.state_key(&mut first, "options");
        w.raw("[");
        for (i, o) in options.iter().enumerate() {
            if i > 0 {
                w.raw(",");
            }
            w.key_first("text");
            w.string(&o.text);
            w.key("value");
            w.string(&o.value);
            w.key("selected");
            w.bool(o.selected);
            w.raw("}");
        }
        w.raw("]");
    }
    w.raw(if first { "{}" } else { "}" });
}

/// Bytes, not a `String`: floats are written by serde_json's `io::Write`
/// path, which costs no allocation per number.
#[derive(Default)]
struct Writer {
    out: Vec<u8>,
}

impl Writer {
    fn raw(&mut self, s: &str) {
        self.out.extend_from_slice(s.as_bytes());
    }

    /// `{"name":`
    fn key_first(&mut self, name: &str) {
        self.raw("{\"");
        self.raw(name);
        self.raw("\":");
    }

    /// `,"name":`
    fn key(&mut self, name: &str) {
        self.raw(",\"");
        self.raw(name);
        self.raw("\":");
    }

    /// The next key of an object whose keys are all optional.
    fn state_key(&mut self, first: &mut bool, name: &str) {
        if *first {
            self.key_first(name);
        } else {
            self.key(name);
        }
        *first = false;
    }

    fn state_bool(&mut self, first: &mut bool, name: &str, v: Option<bool>) {
        if let Some(v) = v {
            self.state_key(first, name);
            self.bool(v);
        }
    }

    fn bool(&mut self, v: bool) {
        self.raw(if v { "true" } else { "false" });
    }

    fn uint(&mut self, v: u32) {
        let mut digits = [0u8; 10];
        let mut n = v;
        let mut at = digits.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        self.out.extend_from_slice(&digits[at..]);
    }

    fn int(&mut self, v: i32) {
        if v < 0 {
            self.out.push(b'-');
        }
        self.uint(v.unsigned_abs());
    }

    /// serde_json's float: shortest round-trip text, `null` when not finite.
    fn float(&mut self, v: f64) {
        if self.layout_float(v) {
            return;
        }
        if v.is_finite() {
            if serde_json::to_writer(&mut self.out, &v).is_err() {
                self.raw("null");
            }
        } else {
            self.raw("null");
        }
    }

    /// The common case of [`Writer::float`] without ryu's 128-bit arithmetic:
    /// Blink lays out in 1/64 px (`LayoutUnit`), so nearly every coordinate
    /// is k/64. Below 1e9 such a number has at most 15 significant digits,
    /// so its exact decimal text is also its shortest round-trip text, which
    /// is what serde_json writes (`12.0`, `140.578125`). False when `v` is
    /// not of that form (the caller then formats it in full).
    fn layout_float(&mut self, v: f64) -> bool {
        let scaled = v * 64.0;
        if !v.is_finite()
            || v.abs() >= 1e9
            || scaled != scaled.trunc()
            || (v == 0.0 && v.is_sign_negative())
        {
            return false;
        }
        if v < 0.0 {
            self.out.push(b'-');
        }
        let k = scaled.abs() as u64;
        self.uint((k >> 6) as u32);
        self.out.push(b'.');
        // frac/64 = frac × 15625 / 10^6: six digits, trailing zeros dropped
        // (but one kept: serde_json writes `12.0`).
        let mut f = (k & 63) as u32 * 15625;
        let mut digits = [b'0'; 6];
        for d in digits.iter_mut().rev() {
            *d = b'0' + (f % 10) as u8;
            f /= 10;
        }
        let len = digits.iter().rposition(|&d| d != b'0').map_or(1, |i| i + 1);
        self.out.extend_from_slice(&digits[..len]);
        true
    }

    fn opt_string(&mut self, s: Option<&str>) {
        match s {
            Some(s) => self.string(s),
            None => self.raw("null"),
        }
    }

    /// serde_json's escapes: `"`, `\`, and the C0 controls (short forms for
    /// `\b \t \n \f \r`, `\u00XX` with lower-case hex for the rest).
    /// Not inlined: it is called from a dozen places, and each inlined copy
    /// of its loop cost the engine's WebAssembly hundreds of bytes (the
    /// size budget) for no measurable time.
    #[inline(never)]
    fn string(&mut self, s: &str) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        self.out.push(b'"');
        let mut start = 0;
        for (i, &b) in s.as_bytes().iter().enumerate() {
            let short = match b {
                b'"' => b'"',
                b'\\' => b'\\',
                0x08 => b'b',
                0x09 => b't',
                0x0a => b'n',
                0x0c => b'f',
                0x0d => b'r',
                0x00..=0x1f => b'u',
                _ => continue,
            };
            self.out.extend_from_slice(&s.as_bytes()[start..i]);
            self.out.extend_from_slice(&[b'\\', short]);
            if short == b'u' {
                self.out.extend_from_slice(b"00");
                self.out.push(HEX[usize::from(b >> 4)]);
                self.out.push(HEX[usize::from(b & 0xf)]);
            }
            start = i + 1;
        }
        self.out.extend_from_slice(&s.as_bytes()[start..]);
        self.out.push(b'"');
    }

    fn finish(self) -> String {
        // Only `&str`s and ASCII went in, so this never falls back.
        String::from_utf8(self.out).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests;
