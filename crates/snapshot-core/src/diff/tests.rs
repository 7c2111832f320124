//! Diffs by stable id: insertions before, removals, changes of text, state
//! and geometry (with the move threshold), filter/limit independence, the
//! bounded history and its errors.

use super::*;
use crate::engine::{snapshot_json_tracked, snapshot_tracked, Tracking, WireInput};
use crate::options::SnapshotOptions;
use crate::raw::encode;
use crate::test_dom::{el, PageBuilder};
use crate::RawPage;

/// A page of buttons, each `(id, text, y)`.
fn page(buttons: &[(u32, &str, i32)]) -> RawPage {
    buttons
        .iter()
        .fold(PageBuilder::new(800.0, 600.0), |p, &(id, text, y)| {
            p.node(el("button").id(id).text(text).rect(10, y, 100, 30))
        })
        .build()
}

struct Page {
    history: History,
    next: u32,
    previous: u32,
}

impl Page {
    fn new() -> Self {
        Page {
            history: History::default(),
            next: 1,
            previous: 0,
        }
    }

    fn snap(&mut self, raw: &RawPage, options: &str) -> Result<crate::Snapshot, String> {
        let opts = SnapshotOptions::parse(options)?;
        let tracking = Tracking {
            snapshot_id: self.next,
            previous_id: self.previous,
            waited: None,
            frames: false,
        };
        let out = snapshot_tracked(raw, &opts, "test", tracking, &mut self.history);
        if out.is_ok() {
            self.previous = self.next;
        }
        self.next += 1;
        out
    }

    fn diff(&mut self, raw: &RawPage, options: &str) -> SnapshotDiff {
        let snap = self.snap(raw, options).unwrap();
        snap.diff.unwrap()
    }
}

fn d(since: u32, added: &[u32], removed: &[u32], changed: &[u32]) -> SnapshotDiff {
    SnapshotDiff {
        since: Some(since),
        added: added.to_vec(),
        removed: removed.to_vec(),
        changed: changed.to_vec(),
    }
}

#[test]
fn first_snapshot_has_everything_added_and_no_since() {
    let mut p = Page::new();
    let got = p.diff(&page(&[(5, "B", 50), (3, "A", 10)]), r#"{"diff":true}"#);
    assert_eq!(
        got,
        SnapshotDiff {
            since: None,
            added: vec![3, 5],
            ..Default::default()
        }
    );
}

#[test]
fn snapshot_ids_count_up_and_diffs_appear_only_when_asked() {
    let mut p = Page::new();
    let raw = page(&[(1, "A", 10)]);
    let a = p.snap(&raw, "{}").unwrap();
    let b = p.snap(&raw, "{}").unwrap();
    assert_eq!((a.snapshot_id, b.snapshot_id), (Some(1), Some(2)));
    assert_eq!(b.diff, None);
    assert_eq!(p.diff(&raw, r#"{"diff":true}"#), d(2, &[], &[], &[]));
}

#[test]
fn insert_before_remove_and_change_are_told_apart() {
    let mut p = Page::new();
    p.snap(
        &page(&[(1, "Home", 10), (2, "Cart", 50), (3, "Pay", 90)]),
        "{}",
    )
    .unwrap();
    // A new button (id 4) inserted first shifts everything down by 1 px
    // (under the threshold), "Cart" is removed, "Pay" changes its text.
    let next = page(&[(4, "New", 0), (1, "Home", 11), (3, "Pay 10 €", 91)]);
    assert_eq!(p.diff(&next, r#"{"diff":true}"#), d(1, &[4], &[2], &[3]));
}

#[test]
fn geometry_changes_count_beyond_the_threshold_only() {
    let mut p = Page::new();
    p.snap(&page(&[(1, "A", 10), (2, "B", 100)]), "{}").unwrap();
    // A moves 2 px (not more than the threshold), B 3 px.
    let got = p.diff(&page(&[(1, "A", 12), (2, "B", 103)]), r#"{"diff":true}"#);
    assert_eq!(got, d(1, &[], &[], &[2]));
    // Scrolled off-screen: in_viewport changes.
    let got = p.diff(&page(&[(1, "A", 12), (2, "B", 1103)]), r#"{"diff":true}"#);
    assert_eq!(got, d(2, &[], &[], &[2]));
}

#[test]
fn state_changes_are_changes() {
    let boxes = |checked: bool| {
        let b = el("input").typ("checkbox").id(7).aria_label("Remember me");
        PageBuilder::new(800.0, 600.0)
            .node(if checked { b.checked() } else { b })
            .node(
                el("input")
                    .typ("text")
                    .id(8)
                    .aria_label("Name")
                    .value("Ada"),
            )
            .build()
    };
    let mut p = Page::new();
    p.snap(&boxes(false), "{}").unwrap();
    assert_eq!(
        p.diff(&boxes(true), r#"{"diff":true}"#),
        d(1, &[], &[], &[7])
    );
    assert_eq!(
        p.diff(&boxes(true), r#"{"diff":true}"#),
        d(2, &[], &[], &[])
    );
}

#[test]
fn filter_and_limit_do_not_fake_additions_or_removals() {
    let raw = page(&[(1, "A", 10), (2, "B", 50), (3, "C", 90)]);
    let mut p = Page::new();
    p.snap(&raw, r#"{"limit":1}"#).unwrap();
    // The earlier limit hid B and C from the result, not from the page.
    assert_eq!(p.diff(&raw, r#"{"diff":true}"#), d(1, &[], &[], &[]));
    // Removed is about the page, whatever this snapshot's limit.
    let fewer = page(&[(1, "A", 10), (3, "C", 90)]);
    assert_eq!(
        p.diff(&fewer, r#"{"diff":true,"limit":1}"#),
        d(2, &[], &[2], &[])
    );
}

#[test]
fn since_compares_with_an_older_kept_snapshot() {
    let mut p = Page::new();
    p.snap(&page(&[(1, "A", 10)]), "{}").unwrap();
    p.snap(&page(&[(1, "A", 10), (2, "B", 50)]), "{}").unwrap();
    let got = p.diff(
        &page(&[(1, "A", 10), (2, "B", 50), (3, "C", 90)]),
        r#"{"since":1}"#,
    );
    assert_eq!(got, d(1, &[2, 3], &[], &[]));
}

#[test]
fn history_is_bounded_and_unknown_since_is_an_error() {
    let raw = page(&[(1, "A", 10)]);
    let mut p = Page::new();
    for _ in 0..KEPT_SNAPSHOTS + 2 {
        p.snap(&raw, "{}").unwrap();
    }
    assert_eq!(p.history.kept.len(), KEPT_SNAPSHOTS);
    assert_eq!(
        KEPT_SNAPSHOTS, 4,
        "the error text below (and in diff.rs) says 4"
    );
    let err = p.snap(&raw, r#"{"since":1}"#).unwrap_err();
    assert_eq!(
        err,
        "diff: snapshot 1 of this page is not kept (the engine keeps the last 4, the oldest now being 3); take a new snapshot to compare with"
    );
    assert!(p.snap(&raw, r#"{"since":99}"#).is_err());
    assert!(p.snap(&raw, r#"{"since":6}"#).is_ok());
}

#[test]
fn another_page_starts_afresh() {
    let mut h = History::new();
    h.for_page(1).record(1, Vec::new());
    assert_eq!(h.for_page(1).kept.len(), 1);
    assert_eq!(h.for_page(2).kept.len(), 0);
    assert_eq!(h.for_page(1).kept.len(), 0);
}

#[test]
fn the_json_boundary_numbers_diffs_and_reports_errors() {
    let (meta, nums, strs) = encode(&page(&[(1, "A", 10)]));
    let mut history = History::default();
    let first = snapshot_json_tracked(
        WireInput {
            meta: &meta,
            nums: &nums,
            strs: &strs,
            options: "null",
            frames: "",
        },
        "x",
        Tracking::new(1, 0, -1, false),
        &mut history,
    );
    assert!(first.ends_with(r#""snapshot_id":1}"#), "{first}");
    let (meta, nums, strs) = encode(&page(&[(1, "A", 10), (2, "B", 50)]));
    let second = snapshot_json_tracked(
        WireInput {
            meta: &meta,
            nums: &nums,
            strs: &strs,
            options: r#"{"diff":true,"wait_for_stable":true}"#,
            frames: "s\u{1d}https://ads.test/\u{1d}load_failed",
        },
        "x",
        Tracking {
            frames: true,
            ..Tracking::new(2, 1, 250, true)
        },
        &mut history,
    );
    assert!(
        second.ends_with(r#""stability":{"settled":true,"waited_ms":250,"quiet_ms":200,"timeout_ms":3000}},"snapshot_id":2,"diff":{"since":1,"added":[2],"removed":[],"changed":[]},"frames":{"included":[],"skipped":[{"url":"https://ads.test/","reason":"load_failed"}]}}"#),
        "{second}"
    );
    let bad = snapshot_json_tracked(
        WireInput {
            meta: &meta,
            nums: &nums,
            strs: &strs,
            options: r#"{"since":9}"#,
            frames: "",
        },
        "x",
        Tracking::new(3, 2, -1, false),
        &mut history,
    );
    assert!(
        bad.starts_with(r#"{"status":"error","error":"diff: snapshot 9"#),
        "{bad}"
    );
    // No snapshot id (0): not numbered, not recorded; a negative wait is none.
    let odd = snapshot_json_tracked(
        WireInput {
            meta: &meta,
            nums: &nums,
            strs: &strs,
            options: "{}",
            frames: "",
        },
        "x",
        Tracking::new(0, 0, -5, true),
        &mut history,
    );
    assert!(
        odd.starts_with(r#"{"status":"success""#) && !odd.contains("snapshot_id"),
        "{odd}"
    );
}

#[test]
fn heapsort_sorts() {
    let mut rng = 0x9e37_79b9_7f4a_7c15_u64;
    for n in [0usize, 1, 2, 3, 10, 257, 1000] {
        let mut v: Vec<Fingerprint> = (0..n)
            .map(|_| {
                rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                Fingerprint {
                    id: (rng >> (33 + rng % 30)) as u32,
                    facts: 0,
                    bbox: [0.0; 4],
                    returned: false,
                }
            })
            .collect();
        let mut want: Vec<u32> = v.iter().map(|p| p.id).collect();
        want.sort_unstable();
        sort_by_id(&mut v);
        assert_eq!(v.iter().map(|p| p.id).collect::<Vec<_>>(), want, "n = {n}");
    }
}
