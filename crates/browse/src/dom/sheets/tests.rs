use super::*;

#[test]
fn simple_rules_give_the_pointer_hover_does_not() {
    let html = Html::parse_document(
        r#"<style>/* x */ .thread, #send { cursor: pointer !important } .tip:hover { cursor: pointer } .plain { color: red }</style>
        <div class="thread" id="a">A</div><span id="send"></span><span class="tip" id="t">T</span><p class="plain" id="p">P</p>"#,
    );
    let ids = pointer_nodes(&html);
    let by = |id: &str| {
        let sel = Selector::parse(&format!("#{id}")).expect("selector");
        html.select(&sel)
            .next()
            .map(|e| ids.contains(&e.id()))
            .unwrap_or(false)
    };
    assert!(by("a") && by("send"));
    assert!(!by("t") && !by("p"));
}
