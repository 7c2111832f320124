mod common;
use common::{ids, snapshot};
use sentience_snapshot_query::{known_fields, Query};

fn run(q: &str) -> Vec<String> {
    let s = snapshot();
    let query = Query::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"));
    ids(&s, &query.run(&s.elements))
}

fn err(q: &str) -> (usize, String) {
    let e = Query::parse(q).expect_err(q);
    (e.column(), e.message)
}

#[test]
fn the_issue_example() {
    assert_eq!(run("role=button text~'sign in' clickable=true"), ["1", "5"]);
}

#[test]
fn empty_query_matches_all_in_rank_order() {
    // importance desc: 1100 (3), 1000 (6), 850 (1), 700 (4), 500 (8), 120 (2), 50 (7), -300 (5)
    assert_eq!(run(""), ["3", "6", "1", "4", "8", "2", "7", "5"]);
    assert_eq!(run("   "), run(""));
}

#[test]
fn equal_importance_sorts_top_to_bottom() {
    let mut s = snapshot();
    for e in &mut s.elements {
        e.importance = 0;
    }
    let q = Query::parse("role=button").unwrap();
    // y: 8 at 10, 1 at 200, 5 at 1900
    assert_eq!(ids(&s, &q.run(&s.elements)), ["8", "1", "5"]);
}

#[test]
fn string_operators() {
    assert_eq!(run("text='Sign In'"), ["1"]);
    assert_eq!(
        run("text='sign in'"),
        Vec::<String>::new(),
        "= is case-sensitive"
    );
    assert_eq!(run("text~'SIGN IN'"), ["1", "5"], "~ ignores case");
    assert_eq!(run("text^=sign"), ["1", "5"]);
    assert_eq!(run("text$=SSO"), ["5"]);
    assert_eq!(run("text$=sso"), ["5"]);
    assert_eq!(
        run("role!=button role!=textbox role!=combobox"),
        ["4", "2", "7"]
    );
    assert_eq!(run("text=null"), ["7"]);
    assert_eq!(run("text!=null role=image"), Vec::<String>::new());
    assert_eq!(
        run("text='null'"),
        Vec::<String>::new(),
        "quoted null is the word"
    );
    assert_eq!(
        run("text~''"),
        ["3", "6", "1", "4", "8", "2", "5"],
        "null text contains nothing"
    );
    assert_eq!(run("text!='Sign In' role=button"), ["8", "5"]);
    assert_eq!(run("bg=blue"), ["1"]);
    assert_eq!(run("background_color_name=null role=link"), ["2"]);
    assert_eq!(run("visual_cues.background_color_name~whi"), ["3"]);
    assert_eq!(run("value~ADA@"), ["3"]);
    assert_eq!(run("state.value=France"), ["6"]);
    assert_eq!(run("value!=null"), ["3", "6"]);
}

#[test]
fn number_operators() {
    assert_eq!(run("importance>850"), ["3", "6"]);
    assert_eq!(run("importance>=850"), ["3", "6", "1"]);
    assert_eq!(run("importance<50"), ["5"]);
    assert_eq!(run("importance<=50"), ["7", "5"]);
    assert_eq!(run("importance=700"), ["4"]);
    assert_eq!(run("importance!=700 importance>600"), ["3", "6", "1"]);
    assert_eq!(run("importance>-301"), run(""));
    assert_eq!(run("id=4"), ["4"]);
    assert_eq!(run("bbox.y>1000"), ["5"]);
    assert_eq!(run("y<=10"), ["8", "7"]);
    assert_eq!(run("bbox.width>=300"), ["3"]);
    assert_eq!(run("height=16 x=100"), ["4", "2"]);
    assert_eq!(run("z_index>0"), ["5"]);
    assert_eq!(run("importance>8.5e2"), ["3", "6"]);
    assert_eq!(
        run("importance>'850'"),
        ["3", "6"],
        "a quoted number is a number"
    );
}

#[test]
fn boolean_and_state_operators() {
    assert_eq!(run("in_viewport=false"), ["5"]);
    assert_eq!(run("is_occluded=true"), ["5"]);
    assert_eq!(run("is_primary=true"), ["1"]);
    assert_eq!(run("primary!=false"), ["1"]);
    assert_eq!(
        run("clickable=false"),
        ["7"],
        "missing visual_cues: not clickable"
    );
    assert_eq!(run("is_clickable=false"), ["7"]);
    assert_eq!(run("disabled=true"), ["5"]);
    assert_eq!(run("disabled=false role=button"), ["1", "8"]);
    assert_eq!(run("required=true"), ["3"]);
    assert_eq!(
        run("state.required!=true role=textbox"),
        Vec::<String>::new()
    );
    assert_eq!(run("checked=mixed"), ["4"]);
    assert_eq!(run("checked=false"), ["8"]);
    assert_eq!(run("checked=true"), Vec::<String>::new());
    assert_eq!(run("checked!=null"), ["4", "8"]);
    assert_eq!(run("selected=true"), ["8"]);
    assert_eq!(run("selected=null role=button"), ["1", "5"]);
    assert_eq!(run("expanded=false"), ["5"]);
    assert_eq!(run("expanded!=null"), ["5"]);
}

#[test]
fn spacing_and_quoting() {
    assert_eq!(run("role = button  text ~ \"sign in\""), ["1", "5"]);
    assert_eq!(run("\trole=button\n"), ["1", "8", "5"]);
    assert_eq!(run(r#"text="Forgot password?""#), ["2"]);
    assert_eq!(
        run(r"text='Forgot password\?'"),
        ["2"],
        "unknown escapes stand for the character"
    );
    let mut s = snapshot();
    s.elements[0].text = Some("It's \"quoted\" \\ here".into());
    let q = Query::parse(r#"text='It\'s "quoted" \\ here'"#).unwrap();
    assert_eq!(ids(&s, &q.run(&s.elements)), ["1"]);
    let q = Query::parse(r#"text~"\"quoted\"""#).unwrap();
    assert_eq!(ids(&s, &q.run(&s.elements)), ["1"]);
}

#[test]
fn find_is_the_first_result() {
    let s = snapshot();
    let q = Query::parse("role=button").unwrap();
    assert_eq!(q.find(&s.elements), q.run(&s.elements).first().copied());
    let none = Query::parse("role=radio").unwrap();
    assert_eq!(none.find(&s.elements), None);
}

#[test]
fn parse_once_evaluate_many() {
    let q = Query::parse("role=button").unwrap();
    let a = snapshot();
    let mut b = snapshot();
    b.elements.retain(|e| e.id != 1);
    assert_eq!(ids(&a, &q.run(&a.elements)), ["1", "8", "5"]);
    assert_eq!(ids(&b, &q.run(&b.elements)), ["8", "5"]);
}

#[test]
fn syntax_errors_point_at_the_problem() {
    let (col, msg) = err("role button");
    assert_eq!(col, 6);
    assert_eq!(
        msg,
        "expected an operator (= != ~ ^= $= > >= < <=) after 'role', found 'button' at column 6"
    );
    let (col, msg) = err("role");
    assert_eq!(col, 5);
    assert!(msg.starts_with("expected an operator"), "{msg}");
    assert!(msg.contains("the query ended"), "{msg}");
    let (col, msg) = err("role=");
    assert_eq!(col, 6);
    assert!(msg.contains("expected a value after 'role='"), "{msg}");
    let (col, msg) = err("role=button text~'sign in");
    assert_eq!(col, 18);
    assert!(msg.contains("unterminated string"), "{msg}");
    let (col, msg) = err("=button");
    assert_eq!(col, 1);
    assert!(msg.starts_with("expected a field name"), "{msg}");
    let (col, msg) = err("role==button");
    assert_eq!(col, 6);
    assert!(msg.contains("quote values"), "{msg}");
    let (col, msg) = err("text='a'role=button");
    assert_eq!(col, 9);
    assert!(
        msg.starts_with("expected a space before the next condition"),
        "{msg}"
    );
    let (col, _) = err("role=button  tetx=a");
    assert_eq!(col, 14);
}

#[test]
fn unknown_field_lists_the_known_ones() {
    let (col, msg) = err("role=button colour=red");
    assert_eq!(col, 13);
    assert!(msg.starts_with("unknown field 'colour'"), "{msg}");
    for f in [
        "role",
        "text",
        "importance",
        "bbox.y",
        "in_viewport",
        "is_occluded",
        "z_index",
        "is_primary",
        "background_color_name",
        "clickable",
        "disabled",
        "checked",
        "selected",
        "expanded",
        "required",
        "value",
    ] {
        assert!(msg.contains(f), "{f} missing from: {msg}");
        assert!(known_fields().contains(&f));
    }
    assert!(msg.contains("bg"), "aliases listed: {msg}");
}

#[test]
fn type_errors_point_at_value_or_operator() {
    let (col, msg) = err("importance>high");
    assert_eq!(col, 12);
    assert_eq!(
        msg,
        "expected a number for 'importance', found 'high' at column 12"
    );
    let (col, msg) = err("importance~5");
    assert_eq!(col, 11);
    assert!(msg.contains("does not apply to number field"), "{msg}");
    let (col, msg) = err("text>b");
    assert_eq!(col, 5);
    assert!(msg.contains("does not apply to text field"), "{msg}");
    let (col, msg) = err("clickable=yes");
    assert_eq!(col, 11);
    assert!(msg.contains("true or false"), "{msg}");
    let (col, _) = err("clickable>true");
    assert_eq!(col, 10);
    let (col, msg) = err("checked=maybe");
    assert_eq!(col, 9);
    assert!(msg.contains("mixed"), "{msg}");
    let (_, msg) = err("text~null");
    assert!(msg.contains("use = or !="), "{msg}");
    let (_, msg) = err("importance=NaN");
    assert!(msg.contains("a number"), "{msg}");
    let (_, msg) = err("importance=inf");
    assert!(msg.contains("a number"), "{msg}");
}

#[test]
fn columns_count_characters_not_bytes() {
    let (col, _) = err("text~'héllo wörld' x");
    assert_eq!(col, 21);
}

#[test]
fn never_panics_on_odd_input() {
    for q in [
        "'",
        "\"",
        "\\",
        "a",
        "a=",
        "a=\"\\",
        "text='\\",
        "role=\u{0}",
        "é=1",
        "....",
        "text~'\u{2028}'",
        "importance>1e309",
        "!",
        "~~~",
    ] {
        let _ = Query::parse(q);
    }
}
