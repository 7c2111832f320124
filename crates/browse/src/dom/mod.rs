//! HTML → [`RawPage`]: the in-page walker's job (extension/content/walker.js)
//! done on parsed HTML, with no layout. The snapshot engine then decides
//! roles, names and text by the same rules as for a live page
//! (docs/contracts/browse.md §3 "Elements").
//!
//! Without CSS, "rendered" is read from the markup alone: a subtree is
//! skipped for the `hidden` attribute, an inline `display:none`,
//! `aria-hidden="true"`, `inert`, and `<input type=hidden>` (what the walker
//! skips as `display: none`); inline `visibility:hidden` clears `VISIBLE` as
//! computed style would, inherited and overridable. Rects are synthetic: one
//! row per recorded node in document order, so ranking ties fall back to
//! reading order and every element is "in the viewport".

mod fields;
mod labels;
mod sheets;

use ego_tree::NodeId;
use fields::{first_image_name, values};
use labels::resolve_labels;
use scraper::node::Element;
use scraper::{ElementRef, Html};
use sentience_snapshot_core::contract::{BBox, Viewport};
use sentience_snapshot_core::raw::{Flags, RawNode, RawPage};

/// The walker's caps (walker.js MAX_TEXT, MAX_VALUE, MAX_OPTIONS).
const MAX_TEXT: usize = 300;
const MAX_VALUE: usize = 200;
const MAX_OPTIONS: usize = 50;
/// Height of one synthetic row (CSS px).
pub const ROW: f64 = 24.0;
pub const PAGE_WIDTH: f64 = 1280.0;

/// walker.js RECORD_TAGS: recorded for their tag alone.
const RECORD_TAGS: &[&str] = &[
    "a", "area", "button", "input", "select", "textarea", "img", "summary", "label", "form", "svg",
    "canvas", "search",
];
/// walker.js LEAF_TAGS: never descended into.
const LEAF_TAGS: &[&str] = &[
    "svg", "select", "script", "style", "template", "noscript", "head", "iframe", "object",
    "video", "audio", "canvas", "textarea",
];
const NATIVE_FOCUS: &[&str] = &["button", "input", "select", "textarea", "summary"];
const DISABLEABLE: &[&str] = &[
    "button", "input", "select", "textarea", "fieldset", "optgroup", "option",
];
/// Never text (HTML's innerText skips them: not rendered).
const NO_TEXT: &[&str] = &["script", "style", "template", "noscript", "head", "title"];

/// A page built from HTML: the raw page and, for node `i`, its DOM node.
pub struct DomPage {
    pub raw: RawPage,
    pub nodes: Vec<NodeId>,
}

/// The inline `style` declarations the walker would read from computed style.
#[derive(Default, Clone, Copy)]
struct InlineStyle {
    display_none: bool,
    visibility: Option<bool>,
    cursor_pointer: Option<bool>,
    opacity_zero: bool,
}

fn inline_style(el: &Element) -> InlineStyle {
    let mut s = InlineStyle::default();
    let Some(style) = el.attr("style") else {
        return s;
    };
    for decl in style.split(';') {
        let Some((prop, value)) = decl.split_once(':') else {
            continue;
        };
        let prop = prop.trim().to_ascii_lowercase();
        let value = value
            .trim()
            .trim_end_matches("!important")
            .trim()
            .to_ascii_lowercase();
        match prop.as_str() {
            "display" => s.display_none = value == "none",
            "visibility" => s.visibility = Some(value == "visible"),
            "cursor" => s.cursor_pointer = Some(value == "pointer"),
            "opacity" => s.opacity_zero = value.parse::<f64>().is_ok_and(|v| v <= 0.0),
            _ => {}
        }
    }
    s
}

/// Is this subtree not rendered at all (walker.js `hiddenTree`)?
pub fn hidden_tree(el: &Element) -> bool {
    el.attr("hidden").is_some()
        || el.attr("inert").is_some()
        || el
            .attr("aria-hidden")
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
        || (el.name() == "input"
            && el
                .attr("type")
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("hidden")))
        || inline_style(el).display_none
}

/// walker.js `clean`: whitespace runs collapsed, trimmed, capped.
pub fn clean(s: &str, max: usize) -> String {
    let mut out = String::with_capacity(s.len().min(max * 4));
    let mut count = 0;
    let mut space = false;
    for c in s.chars() {
        if c.is_whitespace() || c == sentience_snapshot_core::raw::SEP {
            space = count > 0;
            continue;
        }
        if count + usize::from(space) >= max {
            break;
        }
        if space {
            out.push(' ');
            count += 1;
            space = false;
        }
        out.push(c);
        count += 1;
    }
    out
}

/// Rendered text of a subtree, roughly `innerText`: text of rendered
/// descendants, stopping once `limit` characters are collected.
pub fn text_of(el: ElementRef<'_>, limit: usize) -> String {
    // The lines of `lines_of`, their breaks collapsed with the rest of the
    // whitespace.
    let mut out = String::new();
    collect_lines(el, &mut out, limit * 4);
    clean(&out, limit)
}

/// Elements HTML's default style sheet displays as blocks (or table rows,
/// list items), which `innerText` puts on lines of their own (HTML
/// "Rendering" §15.3; no CSS is read here, as above).
pub(crate) const BLOCK_TAGS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "caption",
    "center",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "hr",
    "legend",
    "li",
    "listing",
    "main",
    "menu",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "tbody",
    "tfoot",
    "thead",
    "tr",
    "ul",
    "xmp",
];

/// The rendered text of a subtree with its line breaks, as the extension's
/// `page_info` sends a live page's (`innerText`, whitespace collapsed, one
/// "\n" per break, no blank lines): a block, a table row, a `<br>` starts a
/// line. The planner reads the same text from every surface
/// (crates/agent/src/page `flatten`: a row's label from the next one's).
/// At most `limit` characters.
pub fn lines_of(el: ElementRef<'_>, limit: usize) -> String {
    let mut raw = String::new();
    collect_lines(el, &mut raw, limit * 4);
    let mut out = String::new();
    for line in raw.split('\n') {
        let room = limit.saturating_sub(out.chars().count() + usize::from(!out.is_empty()));
        let line = clean(line, room);
        if line.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&line);
    }
    out
}

fn collect_lines(el: ElementRef<'_>, out: &mut String, limit: usize) {
    for child in el.children() {
        if out.len() >= limit {
            return;
        }
        if let Some(t) = child.value().as_text() {
            // Newlines in the source are spaces when rendered.
            out.push_str(&t.replace('\n', " "));
        } else if let Some(c) = ElementRef::wrap(child) {
            let e = c.value();
            if NO_TEXT.contains(&e.name()) || hidden_tree(e) {
                continue;
            }
            if e.name() == "br" {
                out.push('\n');
                continue;
            }
            let block = BLOCK_TAGS.contains(&e.name());
            out.push(if block { '\n' } else { ' ' });
            collect_lines(c, out, limit);
            out.push(if block { '\n' } else { ' ' });
        }
    }
}

/// What a child inherits from its ancestors during the walk.
#[derive(Clone, Copy)]
struct Ctx {
    recorded: Option<u32>,
    pointer: bool,
    /// The parent set the pointer cursor itself (walker.js
    /// `ctxPointerOwner`): its children are recorded as possible parts
    /// of one clickable row (snapshot-core select.rs `split_wrappers`).
    pointer_owner: bool,
    visible: bool,
    form: Option<u32>,
    search: bool,
    editable: bool,
}

/// Walks the parsed document like walker.js and returns the raw page.
pub fn raw_page(html: &Html, url: &str) -> DomPage {
    let mut page = RawPage {
        url: url.to_string(),
        timestamp: String::new(),
        viewport: Viewport {
            width: PAGE_WIDTH,
            height: 0.0,
        },
        elements_scanned: 0,
        nodes: Vec::new(),
    };
    let mut nodes = Vec::new();
    let root = html.root_element();
    let ctx = Ctx {
        recorded: None,
        pointer: false,
        pointer_owner: false,
        visible: true,
        form: None,
        search: false,
        editable: false,
    };
    // Elements the page's own style sheets give a pointer cursor (the
    // walker reads computed style; here, the simple rules of <style>).
    let sheet_pointer = sheets::pointer_nodes(html);
    // An explicit stack: deep pages must not overflow the call stack.
    let mut stack: Vec<(ElementRef<'_>, Ctx)> = vec![(root, ctx)];
    let mut labels: Vec<u32> = Vec::new();
    while let Some((el, ctx)) = stack.pop() {
        page.elements_scanned += 1;
        let e = el.value();
        let tag = e.name();
        if matches!(tag, "script" | "style" | "head" | "template") || hidden_tree(e) {
            continue;
        }
        let style = inline_style(e);
        let role_attr = e.attr("role");
        let role_clickable =
            role_attr.is_none() && (tag == "button" || (tag == "a" && e.attr("href").is_some()));
        let pointer = if role_clickable {
            false
        } else {
            style
                .cursor_pointer
                .or_else(|| sheet_pointer.contains(&el.id()).then_some(true))
                .unwrap_or(ctx.pointer)
        };
        let visible = style.visibility.unwrap_or(ctx.visible);
        let onclick = e.attr("onclick").is_some();
        let tabindex = e
            .attr("tabindex")
            .and_then(|t| t.trim().parse::<i32>().ok())
            .is_some_and(|t| t >= 0);
        let editable_attr = e
            .attr("contenteditable")
            .is_some_and(|v| !v.trim().eq_ignore_ascii_case("false"));
        let editable_root = editable_attr && !ctx.editable;
        let in_search = ctx.search
            || tag == "search"
            || role_attr.is_some_and(|r| r.trim().eq_ignore_ascii_case("search"));
        let marked = role_attr.is_some()
            || onclick
            || tabindex
            || editable_root
            || (pointer && !ctx.pointer)
            || (pointer && ctx.pointer_owner)
            || e.attr("aria-haspopup").is_some();
        let mut rec = ctx.recorded;
        let mut form = ctx.form;
        if marked || RECORD_TAGS.contains(&tag) {
            let i = page.nodes.len() as u32;
            if tag == "form" {
                form = Some(i);
            }
            let mut node = record(el, tag, role_attr, ctx, i);
            let mut flags = node.flags.0;
            if visible {
                flags |= Flags::VISIBLE;
            }
            if pointer {
                flags |= Flags::CURSOR_POINTER;
            }
            if ctx.pointer {
                flags |= Flags::PARENT_CURSOR_POINTER;
            }
            if onclick {
                flags |= Flags::ONCLICK;
            }
            if tabindex {
                flags |= Flags::TABINDEX;
            }
            if editable_root {
                flags |= Flags::CONTENTEDITABLE;
            }
            if in_search {
                flags |= Flags::IN_SEARCH;
            }
            if style.opacity_zero {
                flags |= Flags::TRANSPARENT;
            }
            node.flags = Flags(flags);
            node.form = ctx.form;
            if tag == "label" {
                labels.push(i);
            }
            page.nodes.push(node);
            nodes.push(el.id());
            rec = Some(i);
        }
        let actionable = tag == "button" || (tag == "a" && e.attr("href").is_some());
        if LEAF_TAGS.contains(&tag) || actionable {
            continue;
        }
        let child_ctx = Ctx {
            recorded: rec,
            pointer,
            pointer_owner: pointer && !ctx.pointer,
            visible,
            form,
            search: in_search,
            editable: ctx.editable || editable_attr,
        };
        // Reverse, so the stack pops children in document order.
        let children: Vec<ElementRef<'_>> = el.child_elements().collect();
        for c in children.into_iter().rev() {
            stack.push((c, child_ctx));
        }
    }
    resolve_labels(html, &mut page, &nodes, &labels);
    page.viewport.height = (page.nodes.len() as f64 + 1.0) * ROW;
    DomPage { raw: page, nodes }
}

/// One recorded node: every attribute-derived fact (walker.js's `strs` row
/// and flags that come from attributes).
fn record(el: ElementRef<'_>, tag: &str, role_attr: Option<&str>, ctx: Ctx, i: u32) -> RawNode {
    let e = el.value();
    let attr = |name: &str| e.attr(name).map(|v| clean(v, MAX_TEXT)).unwrap_or_default();
    let is_true = |name: &str| {
        e.attr(name)
            .is_some_and(|v| !matches!(v.trim(), "false" | "undefined"))
    };
    let aria_eq = |name: &str, want: &str| e.attr(name).is_some_and(|v| v.trim() == want);
    let input_type = if tag == "input" || tag == "button" {
        e.attr("type")
            .map(|t| t.trim().to_ascii_lowercase())
            .unwrap_or_default()
    } else {
        String::new()
    };
    let mut flags = 0;
    if (DISABLEABLE.contains(&tag) && e.attr("disabled").is_some())
        || aria_eq("aria-disabled", "true")
    {
        flags |= Flags::DISABLED;
    }
    if (tag == "input" && e.attr("checked").is_some()) || aria_eq("aria-checked", "true") {
        flags |= Flags::CHECKED;
    }
    if aria_eq("aria-checked", "mixed") {
        flags |= Flags::MIXED;
    }
    if tag == "select"
        && (e.attr("multiple").is_some()
            || e.attr("size")
                .and_then(|s| s.trim().parse::<u32>().ok())
                .unwrap_or(0)
                > 1)
    {
        flags |= Flags::LISTBOX_SELECT;
    }
    if tag == "input" && e.attr("list").is_some() {
        flags |= Flags::HAS_LIST;
    }
    let has_href = matches!(tag, "a" | "area") && e.attr("href").is_some();
    if has_href {
        flags |= Flags::HAS_HREF;
    }
    if is_true("aria-haspopup") {
        flags |= Flags::HAS_POPUP;
    }
    if matches!(tag, "img" | "svg" | "canvas") {
        flags |= Flags::REPLACED;
    }
    if NATIVE_FOCUS.contains(&tag) || has_href {
        flags |= Flags::NATIVELY_FOCUSABLE;
    }
    if e.attr("required").is_some() || aria_eq("aria-required", "true") {
        flags |= Flags::REQUIRED;
    }
    if let Some(sel) = e.attr("aria-selected") {
        flags |= Flags::HAS_SELECTED;
        if sel.trim() == "true" {
            flags |= Flags::SELECTED;
        }
    }
    match e.attr("aria-expanded").map(str::trim) {
        Some("true") => flags |= Flags::EXPANDED,
        Some("false") => flags |= Flags::COLLAPSED,
        _ if tag == "summary" => {
            if let Some(details) = el.parent().and_then(ElementRef::wrap) {
                if details.value().name() == "details" {
                    flags |= if details.value().attr("open").is_some() {
                        Flags::EXPANDED
                    } else {
                        Flags::COLLAPSED
                    };
                }
            }
        }
        _ => {}
    }
    let wants_text = !matches!(tag, "form" | "label" | "select" | "input" | "textarea");
    let text = if wants_text {
        text_of(el, MAX_TEXT)
    } else {
        String::new()
    };
    let alt = if tag == "img" || tag == "area" || (tag == "input" && input_type == "image") {
        attr("alt")
    } else if wants_text && text.is_empty() {
        first_image_name(el)
    } else {
        String::new()
    };
    let (value, options) = values(el, tag, &input_type, role_attr);
    RawNode {
        stable_id: i + 1,
        parent: ctx.recorded,
        tag: tag.to_string(),
        rect: BBox {
            x: 0.0,
            y: f64::from(i) * ROW,
            width: PAGE_WIDTH / 2.0,
            height: ROW - 4.0,
        },
        role_attr: role_attr.map(|r| clean(r, 100)).unwrap_or_default(),
        input_type,
        aria_label: attr("aria-label"),
        labelledby_text: String::new(),
        placeholder: attr("placeholder"),
        alt,
        title: attr("title"),
        text,
        name: e.attr("name").map(|v| clean(v, 100)).unwrap_or_default(),
        value,
        options,
        flags: Flags(flags),
        ..RawNode::default()
    }
}
