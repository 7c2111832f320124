//! Differential tests: the options reader against what it replaces,
//! `serde_json::from_str` with the types' serde derives. Both must accept
//! the same inputs with the same values (floats bit for bit) and reject
//! the same ones; the messages are ours (pinned at the end).

use super::*;

/// What the reader replaced: serde_json with the derives (the message
/// dropped: only accept/reject and the value are compared).
fn reference(json: &str) -> Option<SnapshotOptions> {
    serde_json::from_str::<SnapshotOptions>(json).ok()
}

fn ours(json: &str) -> Option<SnapshotOptions> {
    parse_options(json).ok()
}

/// `PartialEq` on `f64` hides `-0.0` vs `0.0`; compare the bits too.
fn area_bits(opts: &Option<SnapshotOptions>) -> Option<u64> {
    opts.as_ref()?.filter.as_ref()?.min_area.map(f64::to_bits)
}

fn assert_same(json: &str) {
    let (want, got) = (reference(json), ours(json));
    let verdict = |o: &Option<SnapshotOptions>| if o.is_some() { "accepts" } else { "rejects" };
    assert_eq!(
        got,
        want,
        "input {json:?}: serde {}, ours {} ({:?})",
        verdict(&want),
        verdict(&got),
        parse_options(json).err()
    );
    assert_eq!(area_bits(&got), area_bits(&want), "input: {json:?}");
}

const CASES: &[&str] = &[
    "",
    "  ",
    "null",
    "{}",
    "[]",
    "[null,null,null]",
    "[5,{},true]",
    "[1,null,null,4]",
    "[1,null,null,]",
    r#"{"limit":5,"filter":{"min_area":10,"allowed_roles":["button","link"],"min_z_index":1,"in_viewport_only":true},"screenshot":{"format":"jpeg","quality":80}}"#,
    r#"{"limt":5}"#,
    r#"{"limt" :5}"#,
    r#"{"limit":-1}"#,
    r#"{"limit":"5"}"#,
    r#"{"limit":1.5}"#,
    r#"{"limit":1e3}"#,
    r#"{"limit":-0}"#,
    r#"{"limit":99999999999}"#,
    r#"{"limit":18446744073709551616}"#,
    r#"{"limit":-9223372036854775809}"#,
    r#"{"limit":1,"limit":2}"#,
    r#"{"limit":null,"limit":2}"#,
    r#"{"limit" : 1 , "limit"  :2}"#,
    r#"{"filter":{"allowed_roles":["heading"]}}"#,
    r#"{"filter":{"allowed_roles":[{"button":null}]}}"#,
    r#"{"filter":{"allowed_roles":[{"button":null,"link":null}]}}"#,
    r#"{"filter":{"allowed_roles":[{"button":1}]}}"#,
    r#"{"filter":{"allowed_roles":[{"bogus":null}]}}"#,
    r#"{"filter":{"allowed_roles":[{}]}}"#,
    r#"{"filter":{"allowed_roles":[{5:null}]}}"#,
    r#"{"filter":{"allowed_roles":[5]}}"#,
    r#"{"filter":{"allowed_roles":"button"}}"#,
    r#"{"filter":{"min_area":-3}}"#,
    r#"{"filter":{"min_area":1e400}}"#,
    r#"{"filter":{"min_area":1e-400}}"#,
    r#"{"filter":{"min_area":-0.0}}"#,
    r#"{"filter":{"min_area":123456789012345678901234567890.123e-5}}"#,
    r#"{"filter":{"min_area":0.1234567890123456789012345}}"#,
    r#"{"filter":{"min_area":1e99999999999}}"#,
    r#"{"filter":{"min_area":0e99999999999}}"#,
    r#"{"filter":{"min_area":5e-99999999999}}"#,
    r#"{"filter":{"min_z_index":2147483648}}"#,
    r#"{"filter":{"min_z_index":-2147483649}}"#,
    r#"{"filter":{"in_viewport_only":1}}"#,
    r#"{"filter":[]}"#,
    r#"{"filter":[1,null,2,false]}"#,
    r#"{"filter":[1,null,2,false,5]}"#,
    r#"{"filter":{},"filter":{}}"#,
    r#"{"screenshot":true}"#,
    r#"{"screenshot":{"format":"gif"}}"#,
    r#"{"screenshot":{"quality":101}}"#,
    r#"{"screenshot":{"quality":300}}"#,
    r#"{"screenshot":{"format":{"png":null}}}"#,
    r#"{"screenshot":{"format":{"png":null,"jpeg":null}}}"#,
    r#"{"screenshot":["jpeg",80]}"#,
    r#"{"screenshot":["jpeg"]}"#,
    r#"{"screenshot":["jpeg",80,1]}"#,
    r#"{"screenshot":{"format":"png","format":"png"}}"#,
    r#"{"screenshot":{"quality":null,"quality":6}}"#,
    r#"{"screenshot":{"quality":5,"format":"png"}}"#,
    r#"{"screenshot":{"format":{"png":1}}}"#,
    r#"{"screenshot":{"format":{"gif":null}}}"#,
    r#"{"screenshot":{"quality":-1}}"#,
    r#"{"screenshot":{"quality":1.0}}"#,
    r#"{"screenshot":[null,null]}"#,
    r#"{"screenshot":["png",null]}"#,
    r#"{"screenshot":null,"screenshot":true}"#,
    r#"{"screenshot":{"annotate":true}}"#,
    r#"{"screenshot":{"annotate":false,"format":"jpeg","quality":70}}"#,
    r#"{"screenshot":{"annotate":null}}"#,
    r#"{"screenshot":{"annotate":"true"}}"#,
    r#"{"screenshot":{"annotate":1}}"#,
    r#"{"screenshot":{"annotate":true,"annotate":false}}"#,
    r#"{"screenshot":{"annotate":[]}}"#,
    r#"{"screenshot":["png",null,true]}"#,
    r#"{"screenshot":["png",null,null]}"#,
    r#"{"screenshot":["png",80,"x"]}"#,
    r#"{"screenshot":["png",80,true,1]}"#,
    r#"{"screenshot":[]}"#,
    r#"{"screenshot":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"#,
    r#"{"screenshot":{"a":"\u12"}}"#,
    r#"{"screenshot":{"a":"\ud800"}}"#,
    r#"{"screenshot":{"a":"\ud800\u0041"}}"#,
    r#"{"screenshot":{"a":"\udc00"}}"#,
    "{\"a\u{1}\":1}",
    "{\"limit\":\"a\\nb\\\"c\u{e9}\u{301}\u{200b}\"}",
    "  \n{\n\"limit\":\n\"x\"}",
    "{\"limit\":5} x",
    "{\"limit\" 5}",
    "{limit:5}",
    "{\"limit\":05}",
    "{\"limit\":5.}",
    "{\"limit\":5.e3}",
    "{\"limit\":5e}",
    "{\"limit\":-}",
    "{\"limit\":tru}",
    "{\"limit\":nul",
    "{\"limit\":",
    "{",
    "[",
    "{\"limit\":5,}",
    "[5,,]",
    "[,5]",
    "{\"screenshot\":{\"format\":\"png\"",
    r#"{"diff":true}"#,
    r#"{"diff":null,"since":4}"#,
    r#"{"diff":1}"#,
    r#"{"diff":true,"diff":false}"#,
    r#"{"since":0}"#,
    r#"{"since":-2}"#,
    r#"{"since":4294967296}"#,
    r#"{"since":1.0}"#,
    r#"{"wait_for_stable":true}"#,
    r#"{"wait_for_stable":null}"#,
    r#"{"wait_for_stable":{}}"#,
    r#"{"wait_for_stable":{"quiet_ms":100,"timeout_ms":2000}}"#,
    r#"{"wait_for_stable":{"quiet_ms":null}}"#,
    r#"{"wait_for_stable":{"quiet_ms":-1}}"#,
    r#"{"wait_for_stable":{"quiet_ms":1.5}}"#,
    r#"{"wait_for_stable":{"quiet_ms":4294967296}}"#,
    r#"{"wait_for_stable":{"quiet":100}}"#,
    r#"{"wait_for_stable":{"quiet_ms":1,"quiet_ms":2}}"#,
    r#"{"wait_for_stable":[100,2000]}"#,
    r#"{"wait_for_stable":[100]}"#,
    r#"{"wait_for_stable":[100,2000,3]}"#,
    r#"{"wait_for_stable":"yes"}"#,
    r#"{"wait_for_stable":5}"#,
    r#"{"frames":true}"#,
    r#"{"frames":false}"#,
    r#"{"frames":null}"#,
    r#"{"frames":{}}"#,
    r#"{"frames":{"timeout_ms":250}}"#,
    r#"{"frames":{"timeout_ms":null}}"#,
    r#"{"frames":{"timeout_ms":-1}}"#,
    r#"{"frames":{"timeout_ms":1.5}}"#,
    r#"{"frames":{"timeout":250}}"#,
    r#"{"frames":[250]}"#,
    r#"{"frames":[]}"#,
    r#"{"frames":[250,1]}"#,
    r#"{"frames":"yes"}"#,
    r#"{"frames":1}"#,
    r#"[null,null,null,true,3,{"quiet_ms":9}]"#,
    r#"[null,null,null,true,3]"#,
    // Numbers as each target type reads them.
    r#"{"limit":1.0}"#,
    r#"{"limit":1e2}"#,
    r#"{"limit":0}"#,
    r#"{"limit":4294967295}"#,
    r#"{"limit":4294967296}"#,
    r#"{"limit":-0.0}"#,
    r#"{"limit":1E2}"#,
    r#"{"filter":{"min_z_index":-0}}"#,
    r#"{"filter":{"min_z_index":-2147483648}}"#,
    r#"{"filter":{"min_z_index":2147483647}}"#,
    r#"{"filter":{"min_z_index":1.0}}"#,
    r#"{"filter":{"min_area":-0}}"#,
    r#"{"filter":{"min_area":1e2}}"#,
    r#"{"filter":{"min_area":18446744073709551615}}"#,
    r#"{"filter":{"min_area":18446744073709551616}}"#,
    r#"{"filter":{"min_area":18446744073709551619.5}}"#,
    r#"{"filter":{"min_area":-9223372036854775808}}"#,
    r#"{"filter":{"min_area":-18446744073709551615}}"#,
    r#"{"filter":{"min_area":1.7976931348623157e308}}"#,
    r#"{"filter":{"min_area":1.7976931348623159e308}}"#,
    r#"{"filter":{"min_area":4.9e-324}}"#,
    r#"{"filter":{"min_area":2.4703282292062328e-324}}"#,
    r#"{"filter":{"min_area":1e-320}}"#,
    r#"{"filter":{"min_area":0.000000000000000000000000000001e330}}"#,
    r#"{"filter":{"min_area":100000000000000000000000000000000000e-330}}"#,
    r#"{"filter":{"min_area":9007199254740993}}"#,
    r#"{"filter":{"min_area":1e2147483647}}"#,
    r#"{"filter":{"min_area":1e2147483648}}"#,
    r#"{"filter":{"min_area":0e2147483648}}"#,
    r#"{"filter":{"min_area":1e-2147483648}}"#,
    r#"{"filter":{"min_area":1e+5}}"#,
    r#"{"filter":{"min_area":1e-}}"#,
    r#"{"filter":{"min_area":+1}}"#,
    r#"{"filter":{"min_area":.5}}"#,
    r#"{"filter":{"min_area":NaN}}"#,
    r#"{"filter":{"min_area":Infinity}}"#,
    r#"{"filter":{"min_area":0x10}}"#,
    r#"{"screenshot":{"quality":255}}"#,
    r#"{"screenshot":{"quality":256}}"#,
    r#"{"screenshot":{"quality":-0}}"#,
    r#"{"screenshot":{"quality":1e1}}"#,
    r#"{"wait_for_stable":{"quiet_ms":1.0}}"#,
    r#"{"wait_for_stable":{"timeout_ms":-0}}"#,
    // Null versus missing, and the fields' types.
    r#"{"limit":null,"filter":null,"screenshot":null,"diff":null,"since":null,"wait_for_stable":null}"#,
    r#"{"filter":{"min_area":null,"allowed_roles":null,"min_z_index":null,"in_viewport_only":null}}"#,
    r#"{"screenshot":{"format":null}}"#,
    r#"{"screenshot":{"format":"PNG"}}"#,
    r#"{"screenshot":{"format":["png"]}}"#,
    r#"{"screenshot":{"format":{}}}"#,
    r#"{"screenshot":"png"}"#,
    r#"{"screenshot":1}"#,
    r#"{"screenshot":{}}"#,
    r#"{"screenshot":{"quality":"80"}}"#,
    r#"{"wait_for_stable":[]}"#,
    r#"{"wait_for_stable":[null,null]}"#,
    r#"{"wait_for_stable":{"quiet_ms":true}}"#,
    r#"{"wait_for_stable":0}"#,
    r#"{"filter":null}"#,
    r#"{"filter":true}"#,
    r#"{"filter":"x"}"#,
    r#"{"filter":{"allowed_roles":[]}}"#,
    r#"{"filter":{"allowed_roles":[null]}}"#,
    r#"{"filter":{"allowed_roles":["Button"]}}"#,
    r#"{"filter":{"allowed_roles":["button","button"]}}"#,
    r#"{"filter":{"allowed_roles":[["button"]]}}"#,
    r#"{"filter":{"allowed_roles":[{"button":null},"link"]}}"#,
    r#"{"filter":{"allowed_roles":{"button":null}}}"#,
    r#"{"filter":{"in_viewport_only":"true"}}"#,
    r#"{"filter":{"in_viewport_only":null,"in_viewport_only":true}}"#,
    r#"{"filter":{"unknown":1}}"#,
    r#"{"filter":{"min_area":1},"frames":false}"#,
    r#"{"diff":"true"}"#,
    r#"{"diff":[]}"#,
    r#"{"since":null}"#,
    r#"{"since":true}"#,
    r#"{"LIMIT":5}"#,
    r#"{"limit ":5}"#,
    r#"{"\u006cimit":5}"#,
    r#"{"\u006cimit":5,"limit":6}"#,
    r#"{"x":1,"x":2}"#,
    "42",
    "\"limit\"",
    "true",
    "[null,null,null,null,null,null,null]",
    "[null,null,null,null,null]",
    "[null,[],null,null,null,null]",
    "[null,[null,null,null,null],[\"png\",null],null,null,[1,2]]",
    // Syntax: whitespace, BOM, trailing text, literals, strings.
    "\u{feff}{}",
    "{}\u{feff}",
    "\u{a0}{}",
    "{}\u{0}",
    " \t\r\n{ \t\r\n} \t\r\n",
    "{}{}",
    "{},",
    "{} null",
    "{\"limit\":5}}",
    "{\"limit\":5]",
    "[null,null,null,null,null,null]]",
    "{\"diff\":True}",
    "{\"diff\":truex}",
    "{\"diff\":nulll}",
    "{\"limit\":5 , }",
    "{\"limit\"::5}",
    "{,}",
    "{\"limit\":5,,\"diff\":true}",
    "{'limit':5}",
    "{\"limit\":5}/*c*/",
    "{\"limit\":5}//c",
    "{\"screenshot\":{\"format\":\"pn\\u0067\"}}",
    "{\"screenshot\":{\"format\":\"\\u0070\\u006E\\u0067\"}}",
    "{\"screenshot\":{\"format\":\"png\\u0000\"}}",
    "{\"screenshot\":{\"format\":\"png\\x\"}}",
    "{\"screenshot\":{\"format\":\"png\\\"}}",
    "{\"limit\":5,\"\\ud83d\\ude00\":1}",
    "{\"\\ud83d\\u0041\":1}",
    "{\"\\ud83d\":1}",
    "{\"\\ude00\\ud83d\":1}",
    "{\"a\tb\":1}",
    "{\"a\u{7f}b\":1}",
];

#[test]
fn curated_inputs_match_serde_json() {
    for case in CASES {
        assert_same(case);
    }
}

/// A small deterministic generator (no dependency for randomness).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const KEYS: &[&str] = &[
    "limit",
    "filter",
    "screenshot",
    "min_area",
    "allowed_roles",
    "min_z_index",
    "in_viewport_only",
    "format",
    "quality",
    "annotate",
    "button",
    "png",
    "diff",
    "since",
    "wait_for_stable",
    "frames",
    "quiet_ms",
    "timeout_ms",
    "jpeg",
    "x",
    "",
];

const SCALARS: &[&str] = &[
    "null",
    "true",
    "false",
    "0",
    "-0",
    "1",
    "5",
    "80",
    "100",
    "101",
    "255",
    "256",
    "-1",
    "4294967295",
    "4294967296",
    "2147483647",
    "2147483648",
    "-2147483648",
    "-2147483649",
    "1.5",
    "1e3",
    "1E+2",
    "1e-2",
    "0.0",
    "-0.0",
    "12345678901234567890",
    "123456789012345678901234",
    "1.7976931348623157e308",
    "1e309",
    "1e-400",
    "5e-324",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "-9223372036854775809",
    "0.30000000000000004",
    "2.5e-3",
    "9007199254740993",
    "\"button\"",
    "\"link\"",
    "\"generic\"",
    "\"png\"",
    "\"jpeg\"",
    "\"gif\"",
    "\"\"",
    "\"5\"",
    "\"\\u0062utton\"",
    "\"\\ud83d\\ude00\"",
    "\"é\"",
    "\"a\\tb\"",
    "\"\\\"\"",
];

fn value(rng: &mut Rng, depth: usize) -> String {
    match rng.below(if depth > 3 { 1 } else { 6 }) {
        0 | 1 => rng.pick(SCALARS).to_string(),
        2 => {
            let n = rng.below(4);
            let items: Vec<String> = (0..n).map(|_| value(rng, depth + 1)).collect();
            format!("[{}]", items.join(","))
        }
        _ => {
            let n = rng.below(4);
            let entries: Vec<String> = (0..n)
                .map(|_| format!("\"{}\":{}", rng.pick(KEYS), value(rng, depth + 1)))
                .collect();
            format!("{{{}}}", entries.join(","))
        }
    }
}

const NOISE: &[&str] = &[
    "{", "}", "[", "]", ":", ",", "\"", "\\", " ", "\n", "\t", "0", "1", "-", ".", "e", "n", "t",
    "f", "x", "é", "\u{1}",
];

/// Deletes, inserts or duplicates a few bytes (on char boundaries).
fn mutate(rng: &mut Rng, s: &str) -> String {
    let mut s = s.to_string();
    for _ in 0..=rng.below(3) {
        let bounds: Vec<usize> = (0..=s.len()).filter(|&i| s.is_char_boundary(i)).collect();
        let at = bounds[rng.below(bounds.len())];
        match rng.below(4) {
            0 => {
                if let Some(c) = s[at..].chars().next() {
                    s.replace_range(at..at + c.len_utf8(), "");
                }
            }
            1 => s.truncate(at),
            _ => s.insert_str(at, rng.pick(NOISE)),
        }
    }
    s
}

#[test]
fn generated_inputs_match_serde_json() {
    let mut rng = Rng(0x5eed);
    for i in 0..60_000 {
        let mut json = value(&mut rng, 0);
        if rng.below(2) == 0 {
            // Mostly the option keys at the top, so deep paths get exercised.
            let n = rng.below(4);
            let entries: Vec<String> = (0..n)
                .map(|_| {
                    let key = rng.pick(&OPTIONS_FIELDS);
                    format!("\"{key}\" : {}", value(&mut rng, 1))
                })
                .collect();
            json = format!("{{{}}}", entries.join(" ,"));
        }
        if i % 3 != 0 {
            json = mutate(&mut rng, &json);
        }
        assert_same(&json);
    }
}

#[test]
fn snapshot_options_parse_keeps_its_messages() {
    // The wrapper trims, maps "" and "null" to defaults and validates.
    for (input, want) in [
        (" null ", Ok(SnapshotOptions::default())),
        (
            r#"{"limit":"5"}"#,
            Err("invalid snapshot options: `limit` must be an integer from 0 to 4294967295"),
        ),
        (
            r#"{"screenshot":{"quality":101}}"#,
            Err("invalid snapshot options: screenshot.quality must be 0..100"),
        ),
    ] {
        let got = SnapshotOptions::parse(input);
        assert_eq!(got, want.map_err(str::to_string), "{input}");
    }
}

#[test]
fn errors_name_the_field_and_what_it_must_be() {
    const SCREENSHOT: &str = " (screenshot must be true, false or {format?: \"png\"|\"jpeg\", quality?: 0..100, annotate?: true|false})";
    const STABLE: &str = " (wait_for_stable must be true, false or {quiet_ms?, timeout_ms?})";
    let roles = Role::ALL.map(|r| format!("`{}`", r.as_str())).join(", ");
    for (input, want) in [
        (r#"{"limt":5}"#, "unknown field `limt`, expected one of `limit`, `filter`, `screenshot`, `diff`, `since`, `wait_for_stable`, `frames`".to_string()),
        (r#"{"limit":-1}"#, "`limit` must be an integer from 0 to 4294967295".into()),
        (r#"{"limit":1.0}"#, "`limit` must be an integer from 0 to 4294967295".into()),
        (r#"{"diff":"yes"}"#, "`diff` must be true or false".into()),
        (r#"{"since":-1}"#, "`since` must be a snapshot_id (an integer from 1 to 4294967295)".into()),
        ("42", "options must be an object".into()),
        ("[1,2]", "options as an array must list its fields in order: limit, filter, screenshot, diff, since, wait_for_stable, frames".into()),
        (r#"{"filter":5}"#, "`filter` must be an object".into()),
        (r#"{"filter":{"min_areas":1}}"#, "unknown field `filter.min_areas`, expected one of `min_area`, `allowed_roles`, `min_z_index`, `in_viewport_only`".into()),
        (r#"{"filter":{"min_area":"1"}}"#, "`filter.min_area` must be a number".into()),
        (r#"{"filter":{"min_z_index":2147483648}}"#, "`filter.min_z_index` must be an integer from -2147483648 to 2147483647".into()),
        (r#"{"filter":{"in_viewport_only":1}}"#, "`filter.in_viewport_only` must be true or false".into()),
        (r#"{"filter":{"allowed_roles":"button"}}"#, "`filter.allowed_roles` must be an array of roles".into()),
        (r#"{"filter":{"allowed_roles":["heading"]}}"#, format!("unknown variant `heading` in `filter.allowed_roles`, expected one of {roles}")),
        (r#"{"filter":{"allowed_roles":[5]}}"#, format!("a role name expected in `filter.allowed_roles`, expected one of {roles}")),
        (r#"{"screenshot":"png"}"#, "`screenshot` must be true, false or {format?: \"png\"|\"jpeg\", quality?: 0..100, annotate?: true|false}".into()),
        (r#"{"screenshot":{"format":"gif"}}"#, format!("`screenshot.format` must be \"png\" or \"jpeg\"{SCREENSHOT}")),
        (r#"{"screenshot":{"quality":300}}"#, format!("`screenshot.quality` must be an integer from 0 to 100{SCREENSHOT}")),
        (r#"{"screenshot":{"annotate":"yes"}}"#, format!("`screenshot.annotate` must be true or false{SCREENSHOT}")),
        (r#"{"screenshot":{"anotate":true}}"#, format!("unknown field `screenshot.anotate`, expected one of `format`, `quality`, `annotate`{SCREENSHOT}")),
        (r#"{"wait_for_stable":"yes"}"#, "`wait_for_stable` must be true, false or {quiet_ms?, timeout_ms?}".into()),
        (r#"{"frames":"yes"}"#, "`frames` must be true, false or {timeout_ms?}".into()),
        (r#"{"frames":{"timeout":5}}"#, "unknown field `frames.timeout`, expected one of `timeout_ms` (frames must be true, false or {timeout_ms?})".into()),
        (r#"{"frames":{"timeout_ms":-5}}"#, "`frames.timeout_ms` must be an integer from 0 to 4294967295 (frames must be true, false or {timeout_ms?})".into()),
        (r#"{"wait_for_stable":{"quiet":5}}"#, format!("unknown field `wait_for_stable.quiet`, expected one of `quiet_ms`, `timeout_ms`{STABLE}")),
        (r#"{"wait_for_stable":{"quiet_ms":-5}}"#, format!("`wait_for_stable.quiet_ms` must be an integer from 0 to 4294967295{STABLE}")),
        (r#"{"limit":1,"limit":2}"#, "duplicate field `limit`".into()),
        (r#"{"limit":5} x"#, "not valid JSON: unexpected text after the value at byte 12".into()),
        (r#"{"limit" 5}"#, "not valid JSON: expected `:` at byte 9".into()),
        (r#"{"limit":5,}"#, "not valid JSON: expected a string key at byte 11".into()),
        (r#"{"limit":05}"#, "not valid JSON: invalid number (leading zero) at byte 10".into()),
        (r#"{"filter":{"min_area":1e400}}"#, "not valid JSON: number out of range at byte 27".into()),
        ("{\"a\u{1}\":1}", "not valid JSON: control character in a string at byte 3".into()),
        (r#"{"a":"\ud800"}"#, "not valid JSON: lone surrogate in a \\u escape at byte 12".into()),
        ("", "not valid JSON: expected a value at byte 0".into()),
        ("{", "not valid JSON: expected a string key at byte 1".into()),
    ] {
        assert_eq!(parse_options(input), Err(want), "{input}");
    }
}

#[test]
fn recursion_limit_matches_serde_json() {
    for depth in 120..=130 {
        let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert_same(&format!(r#"{{"screenshot":{nested}}}"#));
        assert_same(&format!(r#"[null,null,{nested}]"#));
        let maps = format!("{}1{}", r#"{"a":"#.repeat(depth), "}".repeat(depth));
        assert_same(&format!(r#"{{"screenshot":{maps}}}"#));
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = format!(r#"{{"screenshot":{}}}"#, "[".repeat(100_000));
    assert!(parse_options(&deep)
        .unwrap_err()
        .contains("nested too deeply"));
}
