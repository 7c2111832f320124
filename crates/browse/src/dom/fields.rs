//! The value, options and image-name columns of a recorded node, as
//! walker.js reads them from the live DOM, here from attributes.

use super::{clean, text_of, MAX_OPTIONS, MAX_TEXT, MAX_VALUE};
use scraper::ElementRef;
use sentience_snapshot_core::raw::{OPT_FIELD, OPT_SEP};

/// Name from content of an icon-only control (walker.js): the first image
/// that names something.
pub(super) fn first_image_name(el: ElementRef<'_>) -> String {
    for d in el.descendent_elements().skip(1) {
        let e = d.value();
        let found = match e.name() {
            "img" => e.attr("alt").filter(|a| !a.is_empty()),
            "svg" => e.attr("aria-label"),
            "title"
                if d.parent()
                    .and_then(ElementRef::wrap)
                    .is_some_and(|p| p.value().name() == "svg") =>
            {
                return clean(&d.text().collect::<String>(), MAX_TEXT);
            }
            _ if e.attr("role").is_some_and(|r| r.trim() == "img") => e.attr("aria-label"),
            _ => None,
        };
        if let Some(v) = found {
            return clean(v, MAX_TEXT);
        }
    }
    String::new()
}

/// The value column and the options column (raw.rs S_VALUE, S_OPTIONS).
pub(super) fn values(
    el: ElementRef<'_>,
    tag: &str,
    input_type: &str,
    role_attr: Option<&str>,
) -> (String, String) {
    let e = el.value();
    match tag {
        "input" if matches!(input_type, "password" | "hidden" | "file") => {
            (String::new(), String::new())
        }
        "input" => (
            e.attr("value")
                .map(|v| clean(v, MAX_VALUE))
                .unwrap_or_default(),
            String::new(),
        ),
        "textarea" => (
            clean(&el.text().collect::<String>(), MAX_VALUE),
            String::new(),
        ),
        "select" => {
            let options: Vec<ElementRef<'_>> = el
                .descendent_elements()
                .filter(|o| o.value().name() == "option")
                .collect();
            let selected = options
                .iter()
                .position(|o| o.value().attr("selected").is_some())
                .or((!options.is_empty()).then_some(0));
            let mut wire = Vec::new();
            for (k, o) in options.iter().take(MAX_OPTIONS).enumerate() {
                let text = clean(&o.text().collect::<String>(), 100);
                let value = o
                    .value()
                    .attr("value")
                    .map(|v| clean(v, 100))
                    .unwrap_or_else(|| text.clone());
                wire.push(option_wire(&text, &value, selected == Some(k)));
            }
            let value = selected
                .and_then(|k| options.get(k))
                .map(|o| clean(&o.text().collect::<String>(), MAX_VALUE))
                .unwrap_or_default();
            (value, wire.join(&OPT_SEP.to_string()))
        }
        _ if role_attr.is_some_and(|r| {
            r.split_whitespace()
                .next()
                .is_some_and(|t| t.eq_ignore_ascii_case("listbox"))
        }) =>
        {
            let mut wire = Vec::new();
            for o in el
                .descendent_elements()
                .filter(|o| o.value().attr("role").is_some_and(|r| r.trim() == "option"))
                .take(MAX_OPTIONS)
            {
                let text = o
                    .value()
                    .attr("aria-label")
                    .map(|v| clean(v, 100))
                    .unwrap_or_else(|| text_of(o, 100));
                let value = o
                    .value()
                    .attr("data-value")
                    .or(o.value().attr("value"))
                    .map(|v| clean(v, 100))
                    .unwrap_or_else(|| text.clone());
                let sel = o
                    .value()
                    .attr("aria-selected")
                    .is_some_and(|v| v.trim() == "true");
                wire.push(option_wire(&text, &value, sel));
            }
            (String::new(), wire.join(&OPT_SEP.to_string()))
        }
        _ => (String::new(), String::new()),
    }
}

fn option_wire(text: &str, value: &str, selected: bool) -> String {
    let strip = |s: &str| s.replace([OPT_FIELD, OPT_SEP], " ");
    format!(
        "{}{OPT_FIELD}{}{OPT_FIELD}{}",
        strip(text),
        strip(value),
        if selected { 1 } else { 0 }
    )
}
