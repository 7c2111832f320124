use super::tree_text;

#[test]
fn the_accessibility_tree_gives_title_and_text() {
    let tree = "[WebArea] \"Welcome · Acme Store\"\n  [main]\n    [paragraph]\n      [StaticText] \"Welcome, alice! You said \\\"hi\\\".\"\n  [link] \"Log out\"";
    let (title, text) = tree_text(tree);
    assert_eq!(title, "Welcome · Acme Store");
    assert_eq!(text, "Welcome, alice! You said \"hi\". Log out");
    assert_eq!(tree_text(""), (String::new(), String::new()));
}
