//! Each element's words, normalised once per decision. A decision asks the
//! same questions of every element in several places (is it the task's own
//! instruction, does its label start with what was typed…), and each asked
//! for `normalize(e.label())` again: on the bench's 40-element page that
//! was ~24 normalisations of the task and of labels per step for
//! `is_instruction` alone (docs/benchmarks.md "The planner's words, once
//! per page"). Here they are computed on first use and kept for the rest
//! of the decision.

use crate::page::Page;
use crate::text::normalize;
use sentience_snapshot_core::Observed;
use std::borrow::Cow;
use std::cell::OnceCell;

pub struct Words {
    /// `normalize(task)`.
    task: String,
    /// Per element (by index in `page.elements`): `normalize(e.label())`.
    labels: Vec<OnceCell<String>>,
}

impl Words {
    pub fn new(page: &Page, task: &str) -> Words {
        Words {
            task: normalize(task),
            labels: (0..page.elements.len()).map(|_| OnceCell::new()).collect(),
        }
    }

    pub fn task(&self) -> &str {
        &self.task
    }

    /// `normalize(e.label())`, computed once per element of `page`; an
    /// element of another page (none today) is normalised each time.
    pub fn label<'w>(&'w self, page: &Page, e: &Observed) -> Cow<'w, str> {
        match index_of(page, e).and_then(|i| self.labels.get(i)) {
            Some(cell) => Cow::Borrowed(cell.get_or_init(|| normalize(e.label()))),
            None => Cow::Owned(normalize(e.label())),
        }
    }
}

/// The index of `e` in `page.elements` when it is one of them (by address:
/// the planner only hands around references into the page).
pub fn index_of(page: &Page, e: &Observed) -> Option<usize> {
    let size = std::mem::size_of::<Observed>().max(1);
    let base = page.elements.as_ptr() as usize;
    let at = (e as *const Observed as usize).checked_sub(base)?;
    let i = at / size;
    (at % size == 0)
        .then_some(i)
        .filter(|&i| page.elements.get(i).is_some_and(|x| std::ptr::eq(x, e)))
}
