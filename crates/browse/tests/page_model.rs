//! The built-in policy's page from HTML is the run loop's page: the same
//! visible text with its line breaks (the extension's `page_info` sends
//! `innerText`'s), so what the planner reads off the layout is the same on
//! both surfaces.

use sentience_browse::builtin::agent_page;
use sentience_browse::BrowsePage;

fn page(body: &str) -> sentience_agent::Page {
    let html = format!("<html><head><title>t</title></head><body>{body}</body></html>");
    let p = BrowsePage::parse(&html, "http://h/");
    agent_page(&p, "http://h/")
}

#[test]
fn blocks_rows_and_breaks_start_lines_and_inline_text_does_not() {
    let p = page(
        "<div>Director</div><div>Genre <b>and</b> <i>style</i></div>\
         <table><tr><th>Year</th><td>1998</td></tr><tr><th>Rating</th><td>PG</td></tr></table>\
         <p>one<br>two</p><span>three</span> <span>four</span>",
    );
    let lines: Vec<&str> = {
        let mut cuts = vec![0];
        cuts.extend(&p.line_starts);
        cuts.push(p.visible_text.len() + 1);
        cuts.windows(2)
            .map(|w| p.visible_text[w[0]..w[1] - 1].trim())
            .collect()
    };
    assert_eq!(
        lines,
        [
            "Director",
            "Genre and style",
            "Year 1998",
            "Rating PG",
            "one",
            "two",
            "three four"
        ]
    );
    // The flat text reads as before (single spaces).
    assert_eq!(
        p.visible_text,
        "Director Genre and style Year 1998 Rating PG one two three four"
    );
}

#[test]
fn unlabelled_boxes_under_one_line_each_are_named_by_those_lines() {
    // Three boxes with a <div> of words over each and nothing else to name
    // them: the run loop names them by the lines (crates/agent
    // page/layout_labels.rs); so must the page built from HTML.
    let p = page(
        "<div id=area><div>Director</div><input type=text>\
         <div>Genre</div><input type=text><div>Year</div><input type=text>\
         <button>Submit</button></div>",
    );
    let names: Vec<String> = p
        .elements
        .iter()
        .filter(|e| e.facts.tag == "input")
        .map(|e| e.facts.aria_label.clone())
        .collect();
    assert_eq!(names, ["Director", "Genre", "Year"]);
}

/// A control repeated on cards of plain divs (no `tr` or `li`): each gets
/// its own card's words as its row, as the extension's `page_info` gives
/// them (page-ops.js `cardOf`); a control named once gets none, and a
/// control in a list item keeps its item's words.
#[test]
fn repeated_controls_on_cards_get_their_cards_words_as_their_row() {
    let html = "<html><head><title>t</title></head><body>\
        <h1>Kettles</h1><div class=\"grid\">\
        <div class=\"card\"><div><b>Copper kettle</b> £40</div><div><button aria-label=\"Add one\">+</button></div></div>\
        <div class=\"card\"><div><b>Steel kettle</b> £25</div><div><button aria-label=\"Add one\">+</button></div></div>\
        </div><button>Checkout</button>\
        <ul><li>Gift wrap <button>Toggle</button></li><li>Card <button>Toggle</button></li></ul>\
        </body></html>";
    let p = BrowsePage::parse(html, "http://h/");
    let rows = |name: &str| -> Vec<String> {
        p.elements
            .iter()
            .filter(|e| e.label() == name)
            .map(|e| e.facts.row.clone())
            .collect()
    };
    let mut adds = rows("Add one");
    adds.sort();
    assert_eq!(adds, ["Copper kettle £40 +", "Steel kettle £25 +"]);
    assert_eq!(rows("Checkout"), [""]);
    let mut toggles = rows("Toggle");
    toggles.sort();
    assert_eq!(toggles, ["Card Toggle", "Gift wrap Toggle"]);
}
