//! What the agent reads: the compact listing of a snapshot (the one format
//! of crates/snapshot-query, `format_elements`: one element a line, most
//! important first, within a token budget) and the diff of two snapshots in
//! the same line format, marked `+` (added), `~` (changed), `-` (removed).

use crate::page::View;
use sentience_snapshot_query::format::{clean, element_line};
use sentience_snapshot_query::{
    estimate_tokens, format_elements, format_enough, Element, Enough, Query, Snapshot,
};
use std::collections::HashSet;

/// The listing of `elements` (already filtered) within `max_tokens`: every
/// match the budget holds (a query's answer, `browser_find`).
pub fn listing(elements: &[Element], max_tokens: usize) -> String {
    format_elements(elements, max_tokens).text
}

/// How the agent gets what a page's listing left out (the end of its
/// closing line; the line itself gives the budget that lists it all).
pub const MORE_HINT: &str = "browser_find {query}, or browser_scroll";

/// The listing of a page's `elements` (of `snapshot`, maybe narrowed to the
/// viewport), within `max_tokens` but no longer than the page is worth:
/// crates/snapshot-query `format_enough` (whole when it fits; else what is
/// in and near the viewport, and the fields and primary actions of the
/// rest; docs/mcp.md "How much a snapshot lists"). The engine's own
/// `format()` keeps filling its budget for its other callers.
pub fn page(snapshot: &Snapshot, elements: &[Element], max_tokens: usize) -> String {
    format_enough(
        elements,
        &Enough {
            max_tokens,
            viewport_height: snapshot.viewport.height,
            more_hint: MORE_HINT,
        },
    )
    .text
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

/// What a diff says when nothing changed.
pub const NO_CHANGE: &str = "No change on the page.\n";

/// How a diff is written.
#[derive(Default)]
pub struct DiffStyle<'a> {
    /// A first line counting the changes (an asked-for diff); an action's
    /// reply goes without, its `+ ~ -` marks say as much.
    pub header: bool,
    /// Elements whose new text or value the agent set itself (it typed
    /// it, chose it): that change is not repeated back.
    pub set_by_agent: Option<&'a HashSet<u32>>,
}

/// A listing without the elements' positions: what action answers and
/// navigations give (docs/mcp.md "Answers"). The agent acts by id, and ids
/// follow the document's order, so a button's neighbour in the page is its
/// neighbour in ids; `browser_snapshot` gives the positions, for layout.
pub fn compact(listing: &str) -> String {
    listing
        .lines()
        .map(|l| format!("{}\n", without_position(l)))
        .collect()
}

/// `line` without its last mark, the position (`@x,y`, always last).
fn without_position(line: &str) -> &str {
    let line = line.trim_end_matches('\n');
    match line.rsplit_once(" @") {
        Some((rest, pos))
            if pos
                .chars()
                .all(|c| c.is_ascii_digit() || c == ',' || c == '-') =>
        {
            rest
        }
        _ => line,
    }
}

/// `e`'s line with neither its text nor its value nor its position: what
/// is left to compare when the agent set the text itself.
fn line_sans_text(e: &Element) -> String {
    let mut e = e.clone();
    e.text = None;
    e.state.value = None;
    without_position(&element_line(&e)).to_string()
}

/// What changed, from the engine's diff of `now` (against the snapshot the
/// view last had), within `max_tokens`, in the listing's line form without
/// positions (see `compact`): `+` added, `~` changed, `-` removed, and a
/// count of those that only moved. The agent's own changes
/// (`style.set_by_agent`) are left out, so the text may be empty. `None`
/// when `now` carries no diff.
pub fn diff(now: &Snapshot, before: &View, max_tokens: usize, style: &DiffStyle) -> Option<String> {
    let d = now.diff.as_ref()?;
    let by_id = |id: u32| now.elements.iter().find(|e| e.id == id);
    let mut lines: Vec<String> = Vec::new();
    let mut moved = 0;
    let mut own = 0;
    for &id in &d.changed {
        let Some(e) = by_id(id) else { continue };
        let old = before.known.get(&id);
        let line = element_line(e);
        let short = without_position(&line);
        match old {
            Some(o)
                if style.set_by_agent.is_some_and(|s| s.contains(&id))
                    && line_sans_text(o) == line_sans_text(e) =>
            {
                own += 1
            }
            Some(o) if without_position(&element_line(o)) == short => moved += 1,
            _ => lines.push(format!("~ {short}\n")),
        }
    }
    for &id in &d.added {
        if let Some(e) = by_id(id) {
            lines.push(format!("+ {}\n", without_position(&element_line(e))));
        }
    }
    for &id in &d.removed {
        lines.push(removed_line(id, before.known.get(&id)));
    }
    if moved > 0 {
        lines.push(format!(
            "({moved} element{} only moved)\n",
            if moved == 1 { "" } else { "s" }
        ));
    }
    if lines.is_empty() {
        return Some(if own > 0 {
            String::new()
        } else {
            NO_CHANGE.into()
        });
    }
    let total = lines.len();
    let head = if style.header {
        format!(
            "Changes: {} added, {} changed, {} removed\n",
            d.added.len(),
            d.changed.len(),
            d.removed.len()
        )
    } else {
        String::new()
    };
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
