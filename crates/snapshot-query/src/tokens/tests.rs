use super::estimate_tokens as t;

#[test]
fn prices_pieces_as_documented() {
    assert_eq!(t(""), 0);
    assert_eq!(t("button"), 2);
    assert_eq!(t("Sign in"), 2);
    assert_eq!(t("getElementById"), 5); // get 1, Element 2, By 1, Id 1
    assert_eq!(t("1234567"), 3);
    assert_eq!(t("[42]"), 3);
    assert_eq!(t("a  b"), 3); // the double space is a piece of its own
    assert_eq!(t("\n"), 1);
    assert_eq!(t("é"), 1);
    assert_eq!(t("中"), 2);
    assert_eq!(t("😀"), 3);
}

#[test]
fn additive_over_lines() {
    let a = "[1] button \"Sign in\" @10,20\n";
    let b = "  [2] link \"Home\"\n\n";
    assert_eq!(t(&format!("{a}{b}")), t(a) + t(b));
}

/// Counts from the real encoders (gpt-tokenizer 3.4.0, cl100k_base and
/// o200k_base, the larger of the two), written down once: the estimate
/// must stay at or above them.
#[test]
fn at_least_real_bpe_counts() {
    for (text, real) in [
        ("[12] button \"Sign In\" primary @100,200", 13),
        ("https://shop.example.com/checkout?item=42&qty=1", 15),
        ("The quick brown fox jumps over the lazy dog.", 10),
        (
            "[7] textbox \"Email address\" required value=\"ada@example.com\" @24,310",
            19,
        ),
    ] {
        assert!(
            t(text) >= real,
            "{text}: estimate {} < real {real}",
            t(text)
        );
    }
}
