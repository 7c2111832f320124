use super::*;

#[test]
fn folds_login_synonyms() {
    assert_eq!(concepts("Sign In"), vec!["login"]);
    assert_eq!(concepts("Log in now"), vec!["login"]);
    assert_eq!(concepts("Searching"), vec!["search"]);
}

#[test]
fn quoted_strings_skip_apostrophes() {
    let q: Vec<String> = quoted(r#"Don't log in as "alice" with 'x y'"#)
        .into_iter()
        .map(|q| q.2)
        .collect();
    assert_eq!(q, vec!["alice", "x y"]);
}

#[test]
fn urls_trim_punctuation() {
    assert_eq!(
        urls("Go to http://127.0.0.1:5/checkout.html and pay."),
        vec!["http://127.0.0.1:5/checkout.html"]
    );
}

#[test]
fn success_markers_on_word_boundaries() {
    assert_eq!(success_markers("Welcome, alice!"), vec!["welcome"]);
    assert!(success_markers("unsuccessfully").is_empty());
}
