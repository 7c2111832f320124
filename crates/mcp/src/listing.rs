//! What the agent reads: the compact listing of a snapshot (the one format
//! of crates/snapshot-query, `format_elements`: one element a line, most
//! important first, within a token budget) and the diff of two snapshots in
//! the same line format, marked `+` (added), `~` (changed), `-` (removed).

use crate::page::View;
use sentience_snapshot_query::format::{clean, element_line};
use sentience_snapshot_query::{estimate_tokens, format_elements, Element, Query, Snapshot};

/// The listing of `elements` (already filtered) within `max_tokens`.
pub fn listing(elements: &[Element], max_tokens: usize) -> String {
    format_elements(elements, max_tokens).text
}

/// `elements` of a snapshot that pass the agent's filters.
pub fn filtered(
    snapshot: &Snapshot,
    query: Option<&str>,
    in_viewport_only: bool,
) -> Result<Vec<Element>, String> {
    let mut elements: Vec<Element> = match query.map(str::trim).filter(|q| !q.is_empty()) {
        Some(q) => {
            let q = Query::parse(q).map_err(|e| {
                format!(
                    "query: {e} (fields: {}; e.g. role=button text~'sign in')",
                    sentience_snapshot_query::known_fields().join(", ")
                )
            })?;
            q.run(&snapshot.elements)
                .into_iter()
                .map(|i| snapshot.elements[i].clone())
                .collect()
        }
        None => snapshot.elements.clone(),
    };
    if in_viewport_only {
        elements.retain(|e| e.in_viewport);
    }
    Ok(elements)
}

/// A removed element's line: its id, role and text as last seen.
fn removed_line(id: u32, before: Option<&Element>) -> String {
    match before {
        Some(e) => match e
            .text
            .as_deref()
            .map(|t| clean(t, 60))
            .filter(|t| !t.is_empty())
        {
            Some(t) => format!("- {id} {} \"{t}\"\n", e.role.as_str()),
            None => format!("- {id} {}\n", e.role.as_str()),
        },
        None => format!("- {id}\n"),
    }
}

/// What changed, from the engine's diff of `now` (against the snapshot the
/// view last had), within `max_tokens`. `None` when `now` carries no diff.
pub fn diff(now: &Snapshot, before: &View, max_tokens: usize) -> Option<String> {
    let d = now.diff.as_ref()?;
    let by_id = |id: u32| now.elements.iter().find(|e| e.id == id);
    let mut lines: Vec<String> = Vec::new();
    for &id in &d.changed {
        if let Some(e) = by_id(id) {
            lines.push(format!("~ {}", element_line(e)));
        }
    }
    for &id in &d.added {
        if let Some(e) = by_id(id) {
            lines.push(format!("+ {}", element_line(e)));
        }
    }
    for &id in &d.removed {
        lines.push(removed_line(id, before.known.get(&id)));
    }
    if lines.is_empty() {
        return Some("No change in the page's elements.\n".into());
    }
    let total = lines.len();
    let head = format!(
        "Changes: {} added, {} changed, {} removed\n",
        d.added.len(),
        d.changed.len(),
        d.removed.len()
    );
    let mut out = head.clone();
    let mut used = estimate_tokens(&head);
    let mut shown = 0;
    // Room for the trailer is kept (its largest form).
    let trailer = |n: usize| format!("… {n} more changes\n");
    let reserve = estimate_tokens(&trailer(total));
    for line in &lines {
        let cost = estimate_tokens(line);
        let last = shown + 1 == total;
        if used + cost + if last { 0 } else { reserve } > max_tokens {
            break;
        }
        out.push_str(line);
        used += cost;
        shown += 1;
    }
    if shown < total {
        out.push_str(&trailer(total - shown));
    }
    Some(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
