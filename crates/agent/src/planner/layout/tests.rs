use super::*;
use serde_json::json;

/// `normalize` as first written (a `Vec<char>` and a look around each
/// character): the one-pass version must agree with it on every input.
fn normalize_reference(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut space = true;
    for (i, &ch) in chars.iter().enumerate() {
        let digit_around = |c: char| {
            i > 0
                && chars[i - 1].is_ascii_digit()
                && chars.get(i + 1).is_some_and(char::is_ascii_digit)
                && (c == '.' || c == ',')
        };
        if ch.is_alphanumeric() || ch == '@' {
            out.extend(ch.to_lowercase());
            space = false;
        } else if digit_around(ch) {
            if ch == '.' {
                out.push('.');
            }
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
fn normalize_agrees_with_its_first_definition() {
    let cases = [
        "",
        "   ",
        "$1,299.50 total",
        "1.2.3, 4,5 ,6 7. 8",
        ".5 and 5. and ,5",
        "Sign In — ÉTÉ İstanbul ẞtraße ΣΟΦΙΑ",
        "grace@example.com, password \"x\"!",
        "tabs\tand\nnew lines\r\n  trailing  ",
        "日本語のテキスト 123,456円",
        "a1.b2,c3 9.x x.9",
    ];
    for c in cases {
        assert_eq!(normalize(c), normalize_reference(c), "{c:?}");
    }
    assert_eq!(normalize("$1,299.50 Buy NOW!"), "1299.50 buy now");
}

#[test]
fn labels_are_placed_in_reading_order_outside_the_instruction() {
    let page = Page::from_json(&json!({
        "url": "http://t/",
        "title": "t",
        "visibleText": "Click the second Open please. Alpha Open Beta Open Gamma Open",
        "elements": [
            {"id": "a", "tag": "button", "text": "Open"},
            {"id": "b", "tag": "button", "text": "Open"},
            {"id": "c", "tag": "button", "text": "Open"},
            {"id": "d", "tag": "a", "text": "Missing from the text"}
        ]
    }))
    .expect("page");
    let l = Layout::new(&page, "Click the second Open please");
    let text = &l.text;
    let at = |i: usize| l.offset(i).map(|p| &text[p..]);
    // The instruction's "Open" is skipped; each later button is placed
    // after the one before it.
    assert_eq!(at(0), Some("open beta open gamma open "));
    assert_eq!(at(1), Some("open gamma open "));
    assert_eq!(at(2), Some("open "));
    assert_eq!(l.offset(3), None);
}

#[test]
fn normalize_keeps_numbers_between_any_neighbours() {
    // Digits next to characters that are not ASCII (their bytes are never
    // taken for digits by the byte loop).
    for c in [
        "é1.2é 3—,4 5,é 6.日",
        "ǅungla Ⅻ ① ²,³ 🙂1.5🙂 x🙂y",
        "1,2,3.4.5",
    ] {
        assert_eq!(normalize(c), normalize_reference(c), "{c:?}");
    }
}

#[test]
fn the_word_index_finds_what_memmem_finds() {
    let texts = [
        "  ",
        " a a a b a a ",
        " aa a a a ",
        " please log in to continue please log in ",
        " article number 4 article number 40 article number 4 ",
        " é a é a é ",
    ];
    let needles = [
        " a ",
        " a a ",
        " a a a ",
        " log in ",
        " please log in to continue ",
        " article number 4 ",
        " é a é ",
        " missing ",
    ];
    for t in texts {
        let index = WordIndex::new(t);
        for n in needles {
            let ours: Vec<usize> = index.find_iter(t, n).collect();
            let theirs: Vec<usize> =
                memchr::memmem::find_iter(t.as_bytes(), n.as_bytes()).collect();
            assert_eq!(ours, theirs, "{t:?} {n:?}");
        }
    }
}
