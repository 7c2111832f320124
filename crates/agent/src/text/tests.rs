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

/// `success_markers` as it was before the words were found in place: the
/// text's words listed, each phrase compared word by word.
fn success_markers_by_words(text: &str) -> Vec<String> {
    let norm = normalize(text);
    let ws: Vec<&str> = norm.split(' ').collect();
    SUCCESS_PHRASES
        .iter()
        .filter(|p| {
            let pw: Vec<&str> = p.split(' ').collect();
            (0..ws.len()).any(|i| ws[i..].starts_with(&pw))
        })
        .map(|p| p.to_string())
        .collect()
}

#[test]
fn success_markers_agree_with_the_word_list_definition() {
    let texts = [
        "",
        " ",
        "Welcome",
        "welcome!",
        "Logged in",
        "You are logged in as Kim",
        "you are logged inn",
        "logged",
        "Thank you for your order. Payment received; message sent.",
        "thank  you\nthank-you THANK YOU",
        "Your message has been sent successfully",
        "has been",
        "submitted: yes. Coupon SPRING20 applied.",
        "Confirmation number 88-12. Purchase complete!",
        "unsuccessfully submittedly welcomed",
        "Bienvenue, élan — welcome 欢迎 you are in",
        "signed in signed in signed",
    ];
    for t in texts {
        assert_eq!(success_markers(t), success_markers_by_words(t), "{t:?}");
    }
    let all = SUCCESS_PHRASES.join(" ");
    assert_eq!(success_markers(&all).len(), SUCCESS_PHRASES.len());
    assert_eq!(success_markers(&all), success_markers_by_words(&all));
}

/// `normalize` as it was before the byte loop (each character decoded):
/// the byte loop must agree with it on every input.
fn normalize_by_chars(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = true;
    for ch in s.chars() {
        if ch.is_ascii_alphanumeric() || ch == '@' {
            out.push(ch.to_ascii_lowercase());
            space = false;
        } else if !ch.is_ascii() && ch.is_alphanumeric() {
            out.extend(ch.to_lowercase());
            space = false;
        } else if !space {
            out.push(' ');
            space = true;
        }
    }
    if out.ends_with(' ') {
        out.pop();
    }
    out
}

#[test]
fn normalize_agrees_with_the_character_loop() {
    let cases = [
        "",
        "   ",
        "$1,299.50 total",
        "1.2.3, 4,5 ,6 7. 8",
        "Sign In — ÉTÉ İstanbul ẞtraße ΣΟΦΙΑ",
        "grace@example.com, password \"x\"!",
        "tabs\tand\nnew lines\r\n  trailing  ",
        "日本語のテキスト 123,456円",
        "é1.2é 3—,4 a1.b2,c3 9.x x.9 \u{AD}soft\u{AD}hyphen",
        "ǅungla Ⅻ ① ²³ 🙂 x🙂y",
    ];
    for c in cases {
        assert_eq!(normalize(c), normalize_by_chars(c), "{c:?}");
    }
}

#[test]
fn has_words_is_the_padded_contains() {
    let padded = |h: &str, n: &str| format!(" {h} ").contains(&format!(" {n} "));
    let hays = [
        "",
        "a",
        "aa a a",
        "san francisco sfo",
        "x san",
        "sans serif",
        "é a é",
        "a",
    ];
    let needles = [
        "",
        "a",
        "a a",
        "san",
        "san francisco",
        "sfo",
        "é",
        "serif",
        "x",
    ];
    for h in hays {
        for n in needles {
            assert_eq!(has_words(h, n), padded(h, n), "{h:?} {n:?}");
        }
    }
}

#[test]
fn the_parts_of_an_address_are_one_concept_however_a_form_names_them() {
    assert_eq!(concepts("ZIP code"), concepts("Postcode"));
    assert_eq!(concepts("zip"), concepts("Postal code"));
    assert_eq!(concepts("address line 1"), concepts("Street"));
    assert_eq!(concepts("Summary"), concepts("title"));
    // An e-mail address is not a street.
    assert_ne!(concepts("email address"), concepts("Street"));
}
