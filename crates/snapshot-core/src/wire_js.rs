//! `extension/content/wire.js`, rendered from the wire tables of
//! [`crate::raw`] :
//! the JavaScript that writes the wire uses these names, never numbers, so
//! a column, flag, separator or limit changed in raw.rs changes the walker
//! and the frame gathering too. The test below fails while the committed
//! file differs from the rendering; `UPDATE_WIRE=1` rewrites it.

use crate::raw::*;
use std::fmt::Write;

const PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../extension/content/wire.js"
);
const REGENERATE: &str = "UPDATE_WIRE=1 cargo test -p sentience-snapshot-core wire_js";

/// `doc` as a JSDoc comment: rustdoc links (`[`X`]`) become plain code.
fn jsdoc(doc: &str) -> String {
    let text = doc.trim().replace("[`", "`").replace("`]", "`");
    format!("/** {text} */")
}

fn number(v: f64) -> String {
    // Every value is an integer (offsets, bits, counts, char codes).
    format!("{}", v as i64)
}

fn section(out: &mut String, title: &str, names: &[WireName], len: Option<(&str, usize)>) {
    let _ = writeln!(out, "  // {title}");
    for n in names {
        let _ = writeln!(
            out,
            "  {}\n  {}: {},",
            jsdoc(n.doc),
            n.name,
            number(n.value)
        );
    }
    if let Some((name, value)) = len {
        let _ = writeln!(out, "  {name}: {value},");
    }
}

/// The file's whole text.
pub fn render() -> String {
    let mut out = String::new();
    out.push_str(
        "// @ts-check\n\
         // GENERATED from crates/snapshot-core/src/raw.rs, the walker ↔ engine wire\n\
         // format: do not edit. Regenerate with\n",
    );
    let _ = writeln!(out, "//   {REGENERATE}");
    out.push_str(
        "// (a cargo test fails while this file is stale). A classic script, loaded\n\
         // before the content scripts that write the wire (manifest.json) and usable\n\
         // by importScripts: it defines the one global SentienceWire.\n\
         'use strict';\n\n\
         globalThis.SentienceWire = Object.freeze({\n",
    );
    let _ = writeln!(
        out,
        "  /** The wire version (`meta[M_VERSION]`). */\n  WIRE_VERSION: {},",
        number(WIRE_VERSION)
    );
    section(
        &mut out,
        "meta: the page header",
        META_COLUMNS,
        Some(("META_LEN", META_LEN)),
    );
    section(
        &mut out,
        "meta, after the header: one row per child frame",
        FRAME_COLUMNS,
        Some(("FRAME_STRIDE", FRAME_STRIDE)),
    );
    section(
        &mut out,
        "nums: one row per node",
        NUM_COLUMNS,
        Some(("NUM_STRIDE", NUM_STRIDE)),
    );
    section(
        &mut out,
        "strs: each walk's page strings",
        PAGE_COLUMNS,
        Some(("PAGE_STRS", PAGE_STRS)),
    );
    section(
        &mut out,
        "strs: then each node's strings",
        STR_COLUMNS,
        Some(("STR_FIELDS", STR_FIELDS)),
    );
    section(&mut out, "limits the walker cuts strings to", LIMITS, None);
    section(
        &mut out,
        "limits of snapshot(options) the bridge applies (options.rs)",
        OPTION_LIMITS,
        None,
    );
    section(
        &mut out,
        "the engine handle's tracking argument",
        TRACKING_COLUMNS,
        Some(("TRACKING_LEN", TRACKING_LEN)),
    );
    out.push_str("  // separators\n");
    for n in SEPARATORS {
        let _ = writeln!(
            out,
            "  {}\n  {}: '\\u{:04x}',",
            jsdoc(n.doc),
            n.name,
            n.value as u32
        );
    }
    out.push_str("  /** The `N_FLAGS` bits (raw.rs `Flags`). */\n  FLAGS: Object.freeze({\n");
    for n in FLAG_BITS {
        let _ = writeln!(
            out,
            "    {}\n    {}: {},",
            jsdoc(n.doc),
            n.name,
            number(n.value)
        );
    }
    out.push_str("  }),\n});\n");
    out
}

#[test]
fn wire_js_is_rendered_from_raw_rs() {
    let want = render();
    if std::env::var_os("UPDATE_WIRE").is_some() {
        std::fs::write(PATH, &want).expect("write extension/content/wire.js");
        return;
    }
    let have = std::fs::read_to_string(PATH).unwrap_or_default();
    assert!(
        have == want,
        "extension/content/wire.js is stale: run `{REGENERATE}`"
    );
}

#[test]
fn tables_are_dense_and_flag_bits_distinct() {
    for table in [
        META_COLUMNS,
        NUM_COLUMNS,
        PAGE_COLUMNS,
        STR_COLUMNS,
        FRAME_COLUMNS,
        TRACKING_COLUMNS,
    ] {
        for (i, c) in table.iter().enumerate() {
            assert_eq!(c.value, i as f64, "{}", c.name);
        }
    }
    let mut all = 0u32;
    for f in FLAG_BITS {
        let bit = f.value as u32;
        assert_eq!(bit.count_ones(), 1, "{}", f.name);
        assert_eq!(all & bit, 0, "{}", f.name);
        all |= bit;
    }
}
