//! The hand-written contract JSON against `serde_json::to_string` with the
//! serde derives: byte-identical for engine snapshots and for random ones.

use super::*;
use crate::contract::{
    BBox, FrameCoverage, IncludedFrame, Mixed, Role, SelectOption, SkippedFrame, SnapshotDiff,
    SnapshotMeta, Stability, Viewport, VisualCues,
};
use crate::raw::RawPage;
use crate::test_dom::{el, rgb, rgba, PageBuilder};
use crate::SnapshotOptions;

fn assert_same(s: &Snapshot) {
    let want = serde_json::to_string(s).expect("serde_json serialises a snapshot");
    assert_eq!(snapshot_to_json(s), want);
}

fn pages() -> Vec<RawPage> {
    vec![
        PageBuilder::new(1280.0, 800.0).build(),
        PageBuilder::new(1280.5, 799.25)
            .url("https://example.com/a?q=\"x\"&b=\\y")
            .timestamp("2025-01-20T10:30:00.123Z")
            .node(el("a").href().text("Home").rect(10, 10, 60, 20))
            .nest(el("form").rect(100, 100, 400, 300), |f| {
                f.node(
                    el("input")
                        .typ("email")
                        .placeholder("E-mail \u{1}\u{1f}")
                        .rect(120.5, 120.25, 300, 30),
                )
                .node(
                    el("input")
                        .typ("password")
                        .value("pw")
                        .labels("Pass\tword\n"),
                )
                .node(
                    el("button")
                        .text("Sign in ✓ 日本")
                        .rect(120, 220, 120, 40)
                        .bg(rgb(0, 100, 255)),
                )
            })
            .node(
                el("button")
                    .text("\u{7f}\u{2028}é\"'<>&")
                    .rect(1.0 / 3.0, 1e-7, 1e21, 0.1)
                    .z(-5),
            )
            .node(
                el("img")
                    .replaced()
                    .alt("Logo")
                    .rect(5, 5, 1e300, 5e-324)
                    .bg(rgba(200, 10, 10, 128)),
            )
            .node(
                el("div")
                    .onclick()
                    .text(&"long text ".repeat(30))
                    .rect(-3.5, -0.0, 2.5, 7),
            )
            .build(),
    ]
}

#[test]
fn engine_snapshots_match_serde_json() {
    for page in pages() {
        for opts in [r#"{}"#, r#"{"limit":2}"#, r#"{"filter":{"min_area":1000}}"#] {
            let Ok(opts) = SnapshotOptions::parse(opts) else {
                panic!("options parse");
            };
            for path in ["content_script", "service_worker"] {
                assert_same(&crate::snapshot(&page, &opts, path));
            }
        }
    }
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn float(&mut self) -> f64 {
        let x = self.next();
        match x % 8 {
            0 => f64::from_bits(x >> 1),
            1 => (x % 100_000) as f64 / 64.0,
            2 => [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0][(x >> 8) as usize % 4],
            3 => -((x % 1000) as f64) / 7.0,
            // Layout units on both sides of the fast path's 1e9 bound.
            6 => -(((x >> 4) % 100_000_000_000) as f64) / 64.0,
            7 => ((x >> 4) % 70_000_000_000) as f64 / 64.0,
            _ => (x % 4000) as f64,
        }
    }

    fn text(&mut self) -> String {
        let pieces = [
            "", "a", "\"", "\\", "\u{0}", "\u{8}", "\t", "\n", "\u{b}", "\u{c}", "\r", "\u{1f}",
            " ", "é", "😀", "\u{7f}", "/",
        ];
        (0..self.next() % 6)
            .map(|_| pieces[(self.next() % pieces.len() as u64) as usize])
            .collect()
    }

    fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }

    fn opt_text(&mut self) -> Option<String> {
        (self.next() % 3 < 2).then(|| self.text())
    }
}

fn opt_bool(rng: &mut Rng) -> Option<bool> {
    [None, Some(true), Some(false)][(rng.next() % 3) as usize]
}

fn random_state(rng: &mut Rng) -> ElementState {
    ElementState {
        disabled: opt_bool(rng),
        checked: [
            None,
            Some(Checked::Bool(true)),
            Some(Checked::Bool(false)),
            Some(Checked::Mixed(Mixed::Mixed)),
        ][(rng.next() % 4) as usize],
        selected: opt_bool(rng),
        expanded: opt_bool(rng),
        required: opt_bool(rng),
        value: rng.opt_text(),
        options: rng.coin().then(|| {
            (0..rng.next() % 3)
                .map(|_| SelectOption {
                    text: rng.text(),
                    value: rng.text(),
                    selected: rng.coin(),
                })
                .collect()
        }),
    }
}

fn random_snapshot(rng: &mut Rng) -> Snapshot {
    let elements = (0..rng.next() % 5)
        .map(|_| Element {
            id: rng.next() as u32,
            role: Role::ALL[(rng.next() % 9) as usize],
            text: rng.opt_text(),
            importance: rng.next() as i32,
            bbox: BBox {
                x: rng.float(),
                y: rng.float(),
                width: rng.float(),
                height: rng.float(),
            },
            visual_cues: VisualCues {
                is_primary: rng.coin(),
                background_color_name: rng.opt_text(),
                is_clickable: rng.coin(),
            },
            in_viewport: rng.coin(),
            is_occluded: rng.coin(),
            z_index: [0, -1, i32::MIN, i32::MAX, rng.next() as i32][(rng.next() % 5) as usize],
            state: random_state(rng),
        })
        .collect();
    Snapshot {
        status: rng.text(),
        timestamp: rng.text(),
        url: rng.text(),
        viewport: Viewport {
            width: rng.float(),
            height: rng.float(),
        },
        elements,
        screenshot: rng.opt_text(),
        screenshot_format: rng.opt_text(),
        meta: SnapshotMeta {
            elements_scanned: rng.next() as u32,
            candidates: [0, u32::MAX, rng.next() as u32][(rng.next() % 3) as usize],
            filtered_out: rng.next() as u32,
            truncated_by_limit: rng.next() as u32 % 10,
            engine_path: rng.text(),
            engine_version: crate::ENGINE_VERSION.into(),
            stability: rng.coin().then(|| Stability {
                settled: rng.coin(),
                waited_ms: rng.next() as u32,
                quiet_ms: rng.next() as u32 % 1000,
                timeout_ms: u32::MAX,
            }),
        },
        snapshot_id: rng.coin().then(|| rng.next() as u32),
        diff: rng.coin().then(|| SnapshotDiff {
            since: rng.coin().then(|| rng.next() as u32),
            added: (0..rng.next() % 3).map(|_| rng.next() as u32).collect(),
            removed: (0..rng.next() % 3).map(|_| rng.next() as u32).collect(),
            changed: (0..rng.next() % 3).map(|_| rng.next() as u32).collect(),
        }),
        frames: rng.coin().then(|| FrameCoverage {
            included: (0..rng.next() % 3)
                .map(|_| IncludedFrame {
                    url: rng.text(),
                    depth: rng.next() as u32,
                    via: rng.text(),
                })
                .collect(),
            skipped: (0..rng.next() % 3)
                .map(|_| SkippedFrame {
                    url: rng.text(),
                    reason: rng.text(),
                })
                .collect(),
        }),
    }
}

#[test]
fn random_snapshots_match_serde_json() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    for _ in 0..3000 {
        assert_same(&random_snapshot(&mut rng));
    }
}

#[test]
fn errors_match_serde_json() {
    let mut rng = Rng(42);
    for i in 0..500 {
        let mut e = SnapshotError::new(rng.text());
        e.requires_license = [None, Some(true), Some(false)][i % 3];
        let want = serde_json::to_string(&e).expect("serde_json serialises an error");
        assert_eq!(error_to_json(&e), want);
    }
}

#[test]
fn layout_unit_floats_match_serde_json() {
    // Every fraction of a pixel Blink can lay out (k/64), around zero, at
    // page-sized offsets and at the fast path's 1e9 bound.
    for base in [0.0, 1.0, 777.0, 70_727.0, 999_999_999.0, 1e9, 4e9] {
        for k in 0..64 {
            for sign in [1.0, -1.0] {
                let v = sign * (base + k as f64 / 64.0);
                let mut w = Writer { out: Vec::new() };
                w.float(v);
                let want = serde_json::to_string(&v).expect("serde_json writes a float");
                assert_eq!(String::from_utf8(w.out).expect("utf-8"), want, "{v}");
            }
        }
    }
}
