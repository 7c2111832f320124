//! A task carried out by the planner outside the run API: `sentience act`
//! through the tool server, the browse protocol, the MCP server's
//! whole-task tool. It keeps what a run keeps (the history the planner
//! reads, the first page's baseline) in memory:
//!
//! ```text
//! let mut s = Session::new(task);
//! loop {
//!     let page = /* snapshot + DOM facts */;
//!     match s.next(&page) {
//!         Decision::Tool(t) => { let ok = execute(&t); s.result(ok, message); }
//!         Decision::Finish(r) => break,   // done
//!         Decision::Ask(q) | Decision::Fail(q) => break,
//!     }
//! }
//! ```

use super::{Planner, Situation};
use crate::page::Page;
use crate::policy::{Baseline, Decision};
use crate::text::{success_markers, truncate};
use crate::types::{HistoryEntry, Tool};

#[derive(Debug, Clone)]
pub struct Session {
    planner: Planner,
    history: Vec<HistoryEntry>,
    baseline: Option<Baseline>,
    avoid: Vec<String>,
}

impl Session {
    pub fn new(task: &str) -> Session {
        Session {
            planner: Planner::new(task),
            history: Vec::new(),
            baseline: None,
            avoid: Vec::new(),
        }
    }

    pub fn planner(&self) -> &Planner {
        &self.planner
    }

    pub fn history(&self) -> &[HistoryEntry] {
        &self.history
    }

    /// Ids the caller found looping (a loop detector): never chosen again.
    pub fn avoid(&mut self, id: String) {
        if !self.avoid.contains(&id) {
            self.avoid.push(id);
        }
    }

    /// The next decision on `page`. A tool is recorded as pending: tell
    /// its outcome with [`Session::result`] (the next page tells whether
    /// it changed anything).
    pub fn next(&mut self, page: &Page) -> Decision {
        let sig = page.signature();
        if let Some(last) = self.history.last_mut() {
            if last.page_after.is_none() {
                last.page_after = Some(sig.clone());
            }
        }
        let baseline = self
            .baseline
            .get_or_insert_with(|| Baseline {
                url: page.url.clone(),
                markers: success_markers(&page.all_text()),
            })
            .clone();
        let d = self.planner.next(&Situation {
            page,
            history: &self.history,
            avoid: &self.avoid,
            baseline: &baseline,
        });
        if let Decision::Tool(t) = &d {
            let n = self.history.len() as u32 + 1;
            self.history
                .push(entry_signed(n, t, Some(page), Some(sig), "Pending"));
        }
        d
    }

    /// The outcome of the last tool.
    pub fn result(&mut self, success: bool, message: &str) {
        if let Some(last) = self.history.last_mut() {
            last.success = Some(success);
            last.observation = truncate(message, 300);
        }
    }
}

/// The history entry of a tool chosen on `page` (the run state machine's too).
pub fn entry(step: u32, tool: &Tool, page: Option<&Page>, observation: &str) -> HistoryEntry {
    entry_signed(step, tool, page, page.map(Page::signature), observation)
}

/// [`entry`] with `page`'s signature computed already (it hashes the whole
/// page: a step that has it does not compute it twice).
pub fn entry_signed(
    step: u32,
    tool: &Tool,
    page: Option<&Page>,
    signature: Option<String>,
    observation: &str,
) -> HistoryEntry {
    let el = tool
        .element()
        .and_then(|id| page.and_then(|p| p.find_id(id)));
    HistoryEntry {
        step_number: step,
        action: tool.name().as_str().into(),
        observation: observation.into(),
        timestamp: crate::time::now_ms(),
        parameters: Some(tool.parameters()),
        success: None,
        element_text: el
            .map(|e| truncate(e.label(), 80))
            .filter(|s| !s.is_empty()),
        bbox: el.filter(|e| e.has_box()).map(|e| e.element.bbox),
        url: page.map(|p| p.url.clone()),
        page_before: signature,
        page_after: None,
    }
}
