//! What counts as hidden without CSS (docs/contracts/browse.md §3): the
//! `hidden` attribute, inline `display:none`, `aria-hidden`, `inert`,
//! `type=hidden` drop a subtree; inline `visibility:hidden` is inherited
//! and can be overridden below.

use sentience_browse::BrowsePage;

fn names(html: &str) -> Vec<String> {
    let mut v: Vec<String> = BrowsePage::parse(html, "")
        .elements
        .iter()
        .map(|e| e.text().to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn hidden_markup_is_not_offered() {
    let html = r#"<body>
        <button>Shown</button>
        <div hidden><button>In hidden</button></div>
        <div style="color: red; display : none !important"><a href="/x">In display none</a></div>
        <nav aria-hidden="true"><a href="/y">In aria-hidden</a></nav>
        <section inert><button>In inert</button></section>
        <input type="hidden" name="csrf" value="In type hidden">
        <div style="visibility:hidden"><button>Invisible</button>
            <span style="visibility: visible"><button>Visible again</button></span></div>
        <div aria-hidden="false"><button>Not hidden</button></div>
    </body>"#;
    assert_eq!(names(html), ["Not hidden", "Shown", "Visible again"]);
}

#[test]
fn roles_come_from_the_snapshot_rules() {
    let html = r#"<body>
        <div role="button" tabindex="0">Custom</div>
        <span onclick="go()">Clickable span</span>
        <div style="cursor:pointer">Pointer card</div>
        <form role="search"><input name="q" aria-label="Find"></form>
        <input type="checkbox" id="c" checked><label for="c">Agree</label>
        <a href="/a"><img src="x.png" alt="Logo"></a>
        <details><summary>More</summary>Text</details>
    </body>"#;
    let page = BrowsePage::parse(html, "");
    let roles: Vec<(String, String)> = page
        .elements
        .iter()
        .map(|e| (e.element.role.as_str().to_string(), e.text().to_string()))
        .collect();
    for want in [
        ("button", "Custom"),
        ("generic", "Clickable span"),
        ("generic", "Pointer card"),
        ("searchbox", "Find"),
        ("checkbox", "Agree"),
        ("link", "Logo"),
        ("button", "More"),
    ] {
        assert!(
            roles.iter().any(|(r, t)| r == want.0 && t == want.1),
            "{want:?} not in {roles:?}"
        );
    }
    let checkbox = page
        .elements
        .iter()
        .find(|e| e.text() == "Agree")
        .expect("checkbox");
    assert_eq!(
        serde_json::to_value(&checkbox.element.state).expect("state")["checked"],
        true
    );
}

/// A clickable row of labelled parts is offered part by part, as the
/// extension's snapshot offers it (snapshot-core select/parts.rs); a card
/// stays one element.
#[test]
fn a_clickable_row_of_labels_is_offered_part_by_part() {
    let html = r#"<body>
        <div style="cursor:pointer"><span><i></i>Reply</span> <span><i></i>Forward</span></div>
        <div style="cursor:pointer"><b>Blue enamel mug</b> <p>Keeps your coffee hot for hours</p></div>
    </body>"#;
    assert_eq!(
        names(html),
        [
            "Blue enamel mug Keeps your coffee hot for hours",
            "Forward",
            "Reply"
        ]
    );
}
