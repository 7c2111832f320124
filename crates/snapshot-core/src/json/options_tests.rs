//! Differential tests: the hand-written options parser against what it
//! replaces, `serde_json::from_str` with the types' serde derives. Values
//! (bit for bit) and error messages (positions included) must agree.

use super::*;

/// What the parser replaced: serde_json with the derives.
fn reference(json: &str) -> std::result::Result<SnapshotOptions, String> {
    serde_json::from_str::<SnapshotOptions>(json).map_err(|e| e.to_string())
}

fn ours(json: &str) -> std::result::Result<SnapshotOptions, String> {
    parse_options(json).map_err(|e| e.to_string())
}

/// `PartialEq` on `f64` hides `-0.0` vs `0.0`; compare the bits too.
fn area_bits(r: &std::result::Result<SnapshotOptions, String>) -> Option<u64> {
    let opts = r.as_ref().ok()?;
    opts.filter.as_ref()?.min_area.map(f64::to_bits)
}

fn assert_same(json: &str) {
    let (want, got) = (reference(json), ours(json));
    assert_eq!(got, want, "input: {json:?}");
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
    r#"[null,null,null,true,3,{"quiet_ms":9}]"#,
    r#"[null,null,null,true,3]"#,
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
                    let key = rng.pick(OPTIONS_FIELDS);
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
            Err("invalid snapshot options: invalid type: string \"5\", expected u32 at line 1 column 12"),
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
fn recursion_limit_matches_serde_json() {
    for depth in 120..=130 {
        let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert_same(&format!(r#"{{"screenshot":{nested}}}"#));
        assert_same(&format!(r#"[null,null,{nested}]"#));
        let maps = format!("{}1{}", r#"{"a":"#.repeat(depth), "}".repeat(depth));
        assert_same(&format!(r#"{{"screenshot":{maps}}}"#));
    }
}
