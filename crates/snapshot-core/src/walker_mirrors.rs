//! The walker (extension/content/walker.js) skips reads whose answer the
//! engine would ignore, and each such shortcut restates a rule of the
//! engine ("Mirrored by extension/content/walker.js" in the rule's doc):
//! five pairs, one rule written twice in two languages. Nothing can
//! generate one from the other, so this binds them the way the wire
//! format's test binds raw.rs and wire.js: both sides of every pair are
//! recorded in `walker_mirrors/recorded.txt`, and the test fails as soon as
//! either side changes, naming the other side to check. Once both agree
//! again, `UPDATE_MIRRORS=1 cargo test -p sentience-snapshot-core
//! walker_mirrors` records them.

use std::fmt::Write;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
const RECORDED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/src/walker_mirrors/recorded.txt"
);
const WALKER: &str = "extension/content/walker.js";

/// One side of a pair: in `file`, the line containing `start` and, for a
/// block, every line down to the one closing it (the next line at the
/// same indentation that starts with `}`).
struct Side {
    file: &'static str,
    start: &'static str,
    block: bool,
}

/// An engine rule and the walker's shortcuts that restate it.
struct Pair {
    name: &'static str,
    rule: Side,
    walker: &'static [&'static str],
}

const fn rust(file: &'static str, start: &'static str) -> Side {
    Side {
        file,
        start,
        block: true,
    }
}

const PAIRS: &[Pair] = &[
    Pair {
        name: "a link or button without a role attribute is clickable by its role: its cursor is not read",
        rule: rust("crates/snapshot-core/src/cues.rs", "pub fn is_clickable("),
        walker: &["const roleClickable ="],
    },
    Pair {
        name: "opacity is read only where it can hide a candidate",
        rule: rust("crates/snapshot-core/src/select.rs", "pub fn is_hidden("),
        walker: &["const fixedRole =", "if (!fixedRole && cs.opacity"],
    },
    Pair {
        name: "links and buttons are leaves: what they contain collapses into them",
        rule: rust("crates/snapshot-core/src/select.rs", "fn is_nested_duplicate("),
        walker: &["const actionable = tag === 'button'"],
    },
    Pair {
        name: "only positioned boxes occlude: pointer-events of those only, no box for a form or label kept for its relations",
        rule: rust("crates/snapshot-core/src/occlusion.rs", "fn is_occluder("),
        walker: &[
            "if (positioned && cs.pointerEvents === 'none')",
            "nums[o + N_H] = !marked && !positioned && (tag === 'form' || tag === 'label')",
        ],
    },
    Pair {
        name: "a form control is named by its value, placeholder, labels and title: its text is not read",
        rule: rust(
            "crates/snapshot-core/src/text.rs",
            r#"("input" | "textarea" | "select", _) => {"#,
        ),
        walker: &["const wantsText ="],
    },
];

/// The lines of `side` in its file, or why they cannot be found.
fn extract(side: &Side) -> Result<String, String> {
    let path = format!("{ROOT}/{}", side.file);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let lines: Vec<&str> = text.lines().collect();
    let found: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].contains(side.start))
        .collect();
    let [at] = found[..] else {
        return Err(format!(
            "{}: `{}` found {} times, not once",
            side.file,
            side.start,
            found.len()
        ));
    };
    let indent = |l: &str| l.len() - l.trim_start().len();
    let end = if side.block {
        (at + 1..lines.len())
            .find(|&i| {
                indent(lines[i]) == indent(lines[at]) && lines[i].trim_start().starts_with('}')
            })
            .ok_or_else(|| {
                format!(
                    "{}: the block of `{}` does not close",
                    side.file, side.start
                )
            })?
    } else {
        at
    };
    Ok(lines[at..=end]
        .iter()
        .map(|l| l.trim())
        .collect::<Vec<_>>()
        .join("\n"))
}

/// Every pair's both sides, as recorded.
fn render() -> Result<String, String> {
    let mut out = String::from(
        "# Written by `UPDATE_MIRRORS=1 cargo test -p sentience-snapshot-core walker_mirrors`\n\
         # (crates/snapshot-core/src/walker_mirrors.rs): each engine rule the walker\n\
         # restates, and the walker's lines that restate it. Do not edit.\n",
    );
    for p in PAIRS {
        let _ = writeln!(
            out,
            "\n== {}\n-- {}\n{}",
            p.name,
            p.rule.file,
            extract(&p.rule)?
        );
        for start in p.walker {
            let side = Side {
                file: WALKER,
                start,
                block: false,
            };
            let _ = writeln!(out, "-- {WALKER}\n{}", extract(&side)?);
        }
    }
    Ok(out)
}

/// The recorded section of each pair, by name.
fn sections(text: &str) -> Vec<(String, String)> {
    text.split("\n== ")
        .skip(1)
        .map(|s| {
            let (name, body) = s.split_once('\n').unwrap_or((s, ""));
            (name.to_string(), body.to_string())
        })
        .collect()
}

/// The pairs whose recorded text differs from `now`'s, each with what to check.
fn changed_pairs(recorded: &str, now: &str) -> Vec<String> {
    let before = sections(recorded);
    let mut changed = Vec::new();
    for (name, body) in sections(now) {
        if !before.iter().any(|(n, b)| *n == name && *b == body) {
            let rule = PAIRS
                .iter()
                .find(|p| p.name == name)
                .map_or("", |p| p.rule.file);
            changed.push(format!(
                "- \"{name}\": {rule} or {WALKER} changed; the walker's shortcut must still skip only reads the rule ignores (or read what it now needs)"
            ));
        }
    }
    changed
}

#[test]
fn walker_shortcuts_and_engine_rules_change_together() {
    let now = render().unwrap_or_else(|e| panic!("{e}"));
    if std::env::var_os("UPDATE_MIRRORS").is_some() {
        std::fs::write(RECORDED, &now).expect("write walker_mirrors/recorded.txt");
        return;
    }
    let recorded = std::fs::read_to_string(RECORDED).unwrap_or_default();
    let changed = changed_pairs(&recorded, &now);
    assert!(
        changed.is_empty(),
        "an engine rule and the walker's shortcut that restates it changed apart:\n{}\nCheck the other side, then record both: UPDATE_MIRRORS=1 cargo test -p sentience-snapshot-core walker_mirrors",
        changed.join("\n")
    );
}

#[test]
fn a_change_on_either_side_names_its_pair() {
    let now = render().unwrap_or_else(|e| panic!("{e}"));
    // The engine's side of the first pair, then the walker's side of the last.
    let engine_side = now.replace("|| role.is_actionable()", "|| role == Role::Button");
    let walker_side = now.replace(
        "const wantsText = tag !== 'form'",
        "const wantsText = tag !== 'fieldset'",
    );
    for (edited, pair) in [(engine_side, &PAIRS[0]), (walker_side, &PAIRS[4])] {
        assert_ne!(edited, now, "the edit applies to {}", pair.name);
        let changed = changed_pairs(&now, &edited);
        assert_eq!(changed.len(), 1, "{changed:?}");
        assert!(changed[0].contains(pair.name), "{changed:?}");
    }
    assert!(changed_pairs(&now, &now).is_empty());
}
