//! The built-in `dom` provider: no model at all. It asks the tool server
//! for the page snapshot (`GET /browser/snapshot`, snapshot elements of
//! docs/contracts/snapshot.md §3); the answer is the centre of an element,
//! in viewport pixels: the one the planner chose when the action names it
//! (`sentience act`: one planner, the element is not chosen twice), else
//! the one the System 2 scorer (docs/contracts/system2.md §7, crates/agent)
//! finds the instruction is about. Runs offline, and settles a conflict
//! between two models.

use super::{LocateRequest, Located, ProviderError};
use crate::io::Http;
use crate::page::{is_reachable, snapshot_of};
use crate::tools::ToolClient;
use sentience_agent::system2::score::{
    combine, discoverability, relevance, understandability, Candidate, UserContext,
};
use sentience_agent::task::TaskPlan;
use sentience_agent::text::concepts;
use sentience_snapshot_core::contract::{BBox, Element, Snapshot};

/// Below this semantic relevance nothing on the page is what the
/// instruction names (the System 2 engine's own backtrack threshold).
const MIN_RELEVANCE: f64 = 0.15;

pub(super) async fn locate<H: Http>(
    tools: &ToolClient<H>,
    req: &LocateRequest,
) -> Result<Located, ProviderError> {
    if req.scope == "desktop" {
        return Err(ProviderError::new(
            "dom",
            "the desktop has no DOM to ground on",
        ));
    }
    let v = tools.get("/browser/snapshot").await;
    let snap = snapshot_of(&v).ok_or_else(|| {
        ProviderError::new(
            "dom",
            format!("no page snapshot: {}", crate::tools::error_of(&v)),
        )
    })?;
    match req.element {
        Some(id) => at_element(&snap, id),
        None => ground(&snap, &req.instruction),
    }
}

/// The centre of snapshot element `id`, when a click can reach it.
pub fn at_element(snap: &Snapshot, id: u64) -> Result<Located, ProviderError> {
    let e = snap
        .elements
        .iter()
        .find(|e| u64::from(e.id) == id)
        .ok_or_else(|| {
            ProviderError::new("dom", format!("element {id} is not on the page any more"))
        })?;
    if !is_reachable(e) {
        return Err(ProviderError::new(
            "dom",
            format!("element {id} is not in view or is covered"),
        ));
    }
    let (x, y) = e.bbox.center();
    Ok(Located {
        x,
        y,
        coordinate_origin: "viewport".into(),
        provider: "dom".into(),
        reasoning: Some(format!(
            "{} \"{}\" (the planner's element {id})",
            e.role.as_str(),
            e.text.as_deref().unwrap_or_default()
        )),
    })
}

/// The System 2 scorer's choice (discoverability × understandability ×
/// semantic relevance, docs/contracts/system2.md §7) among the visible elements of `snap`.
/// No pixels: the snapshot's boxes and cues stand in for the screenshot,
/// which keeps grounding well under a millisecond.
pub fn ground(snap: &Snapshot, instruction: &str) -> Result<Located, ProviderError> {
    // A snapshot without a viewport (another producer) folds at 720 px.
    let fold = Some(snap.viewport.height)
        .filter(|h| *h > 0.0)
        .unwrap_or(720.0);
    let plan = TaskPlan::parse(instruction);
    let wanted = concepts(instruction);
    let ctx = UserContext::default();
    let mut best: Option<(f64, f64, Candidate)> = None;
    for c in snap.elements.iter().filter_map(candidate) {
        let d = discoverability(&c, None, fold);
        let u = understandability(&c, &ctx);
        let r = relevance(&c, &wanted, &plan, &[]);
        let total = combine(d.value, u.value, r.value);
        if best.as_ref().is_none_or(|b| total > b.0) {
            best = Some((total, r.value, c));
        }
    }
    let Some((total, rel, c)) = best else {
        return Err(ProviderError::new(
            "dom",
            "the page has no visible element to act on",
        ));
    };
    if rel < MIN_RELEVANCE {
        return Err(ProviderError::new(
            "dom",
            format!("nothing on the page matches \"{instruction}\""),
        ));
    }
    let r = BBox {
        x: c.x,
        y: c.y,
        width: c.width,
        height: c.height,
    };
    let (x, y) = r.center();
    Ok(Located {
        x,
        y,
        coordinate_origin: "viewport".into(),
        provider: "dom".into(),
        reasoning: Some(format!(
            "{} \"{}\" (score {total:.2}, relevance {rel:.2})",
            c.kind, c.text
        )),
    })
}

/// A snapshot element (docs/contracts/snapshot.md §3) as a scorer candidate; hidden, occluded or
/// zero-sized ones are left out (nothing a click could reach).
fn candidate(e: &Element) -> Option<Candidate> {
    if !is_reachable(e) {
        return None;
    }
    let r = e.bbox;
    Some(Candidate {
        text: e.text.clone().unwrap_or_default(),
        is_text_entry: e.role.holds_value(),
        kind: e.role.as_str().to_string(),
        selector: e.id.to_string(),
        x: r.x,
        y: r.y,
        width: r.width,
        height: r.height,
        is_primary: e.visual_cues.is_primary,
    })
}
