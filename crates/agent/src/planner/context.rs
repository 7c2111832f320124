//! What one decision looks at: the page, the run's history (the planner's
//! only memory, so a restarted server carries on where it was), the
//! elements reflections told it to avoid, and the page's text layout.
//! Also the questions every step asks of the history: was this element
//! clicked since step k, did the page change after it, what was typed
//! where.

use super::layout::Layout;
use super::words::Words;
use crate::page::{ElementId, Page};
use crate::policy::Baseline;
use crate::types::HistoryEntry;
use sentience_snapshot_core::Observed;
use std::cell::OnceCell;
use std::ops::Deref;

pub struct Cx<'a> {
    pub task: &'a str,
    pub page: &'a Page,
    pub history: &'a [HistoryEntry],
    pub avoid: &'a [String],
    pub baseline: &'a Baseline,
    /// The page's text layout, laid out on first use (`cx.layout.…`).
    pub layout: LazyLayout<'a>,
    /// Each element's words, normalised once per decision.
    pub words: Words,
}

impl<'a> Cx<'a> {
    pub fn new(
        task: &'a str,
        page: &'a Page,
        history: &'a [HistoryEntry],
        avoid: &'a [String],
        baseline: &'a Baseline,
    ) -> Cx<'a> {
        Cx {
            task,
            page,
            history,
            avoid,
            baseline,
            layout: LazyLayout {
                page,
                task,
                built: OnceCell::new(),
            },
            words: Words::new(page, task),
        }
    }

    /// `normalize(e.label())` (`crate::text::normalize`), once per element.
    pub fn label_words(&self, e: &Observed) -> std::borrow::Cow<'_, str> {
        self.words.label(self.page, e)
    }

    /// Text that is the instruction itself (some pages show the task):
    /// never a target.
    pub fn is_instruction(&self, e: &Observed) -> bool {
        super::find::instruction_words(e, &self.label_words(e), self.words.task())
    }

    pub fn id(&self, e: &Observed) -> ElementId {
        self.page.id_of(e)
    }

    /// The history entry acted on this element (by its id).
    pub fn on(&self, h: &HistoryEntry, e: &Observed) -> bool {
        h.element_key().is_some_and(|id| self.id(e).is(&id))
    }

    /// Elements the reflections or a dead end ruled out.
    pub fn avoided(&self, e: &Observed) -> bool {
        let id = self.id(e);
        self.avoid.iter().any(|a| id.is(a)) || self.dead_end(e)
    }

    /// A link clicked on this page that led somewhere the task could not
    /// go on, after which the planner came back: not taken again.
    fn dead_end(&self, e: &Observed) -> bool {
        let label = e.label();
        if label.is_empty() {
            return false;
        }
        self.history.iter().enumerate().any(|(i, h)| {
            h.action == "click"
                && h.url.as_deref() == Some(self.page.url.as_str())
                && h.element_text.as_deref() == Some(crate::text::truncate(label, 80).as_str())
                && self.history[i + 1..].iter().any(|b| {
                    b.action == "navigate" && b.param_str("url") == Some(self.page.url.as_str())
                })
        })
    }

    /// Index of the first successful click on `e` at or after `from`.
    pub fn clicked_since(&self, from: usize, e: &Observed) -> Option<usize> {
        self.history
            .iter()
            .enumerate()
            .skip(from)
            .find(|(_, h)| h.action == "click" && ok(h) && self.on(h, e))
            .map(|(i, _)| i)
    }

    /// Clicked since `from`, and the page changed after it.
    pub fn clicked_changed(&self, from: usize, e: &Observed) -> Option<usize> {
        self.history
            .iter()
            .enumerate()
            .skip(from)
            .find(|(_, h)| h.action == "click" && ok(h) && !h.no_page_change() && self.on(h, e))
            .map(|(i, _)| i)
    }

    /// Clicked since `from` and nothing changed: clicking again would not help.
    pub fn useless_click(&self, from: usize, e: &Observed) -> bool {
        self.history
            .iter()
            .skip(from)
            .any(|h| h.action == "click" && self.on(h, e) && (h.no_page_change() || !ok(h)))
    }

    /// `text` was typed into `e` on this page (password fields do not show
    /// their value in a snapshot, so the history says).
    pub fn typed_into(&self, e: &Observed, text: &str) -> bool {
        self.history.iter().any(|h| {
            h.action == "type"
                && ok(h)
                && h.param_str("text") == Some(text)
                && self.on(h, e)
                && h.url.as_deref() == Some(self.page.url.as_str())
        })
    }

    /// The field holds `text` (its value, or typed into it on this page).
    pub fn holds(&self, e: &Observed, text: &str) -> bool {
        (!text.is_empty() && e.value() == text) || self.typed_into(e, text)
    }

    /// The last history index that touched any of these elements.
    pub fn last_touch(&self, es: &[&Observed]) -> Option<usize> {
        self.history
            .iter()
            .rposition(|h| es.iter().any(|e| self.on(h, e)))
    }

    /// Elements typed into on this page, most recent last.
    pub fn typed_here(&self) -> Vec<&'a Observed> {
        let mut out: Vec<&Observed> = Vec::new();
        for h in self.history {
            if h.action != "type" || !ok(h) || h.url.as_deref() != Some(self.page.url.as_str()) {
                continue;
            }
            if let Some(e) = h.element_id().and_then(|id| self.page.find(&id)) {
                out.retain(|o| !std::ptr::eq(*o, e));
                out.push(e);
            }
        }
        out
    }

    /// Just after the last action of these kinds since `from` (or `from`):
    /// where the next step's own history begins.
    pub fn after_last(&self, from: usize, actions: &[&str]) -> usize {
        self.history
            .iter()
            .rposition(|h| actions.contains(&h.action.as_str()))
            .map(|i| i + 1)
            .unwrap_or(from)
            .max(from)
    }

    /// Actions taken since `from` of this kind.
    pub fn count_since(&self, from: usize, action: &str) -> usize {
        self.history
            .iter()
            .skip(from)
            .filter(|h| h.action == action)
            .count()
    }

    /// Something was done on the page (not only looked or scrolled).
    pub fn acted(&self) -> bool {
        self.history
            .iter()
            .any(|h| matches!(h.action.as_str(), "click" | "type" | "press" | "navigate") && ok(h))
    }
}

/// `Layout::new(page, task)`, built the first time a step asks for it:
/// it normalises the page's text and every element's label (~90 k
/// instructions a decision, docs/benchmarks.md "The steps walked once…"),
/// and many decisions (a form's fields filled by their labels) never
/// read it. The same layout either way, so the same decisions.
pub struct LazyLayout<'a> {
    page: &'a Page,
    task: &'a str,
    built: OnceCell<Layout>,
}

impl Deref for LazyLayout<'_> {
    type Target = Layout;

    fn deref(&self) -> &Layout {
        self.built.get_or_init(|| Layout::new(self.page, self.task))
    }
}

impl LazyLayout<'_> {
    /// Laid out already (tests: which decisions need it).
    #[cfg(test)]
    pub fn is_built(&self) -> bool {
        self.built.get().is_some()
    }
}

pub fn ok(h: &HistoryEntry) -> bool {
    h.success != Some(false)
}
