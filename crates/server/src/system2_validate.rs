//! System 2 request validation (docs/contracts/system2.md §§2–4, §8) with FastAPI /
//! pydantic (v1) error details: `{"loc": ["body", "task"], "msg": "field required",
//! "type": "value_error.missing"}`. Every problem is reported, not only the first, as
//! FastAPI does.

use sentience_agent::system2::score::UserContext;
use sentience_agent::system2::System2Element;
use serde_json::{json, Map, Value};

pub struct Checked {
    pub task: String,
    pub screenshot: String,
    pub previous_screenshot: Option<String>,
    pub context: UserContext,
    pub scratchpad: Vec<String>,
    pub elements: Vec<System2Element>,
    pub prev_action: Option<(String, System2Element)>,
}

struct V {
    errors: Vec<Value>,
}

type Loc = Vec<Value>;

fn at(loc: &Loc, key: impl Into<Value>) -> Loc {
    let mut l = loc.clone();
    l.push(key.into());
    l
}

impl V {
    fn err(&mut self, loc: Loc, msg: &str, kind: &str) {
        self.errors
            .push(json!({"loc": loc, "msg": msg, "type": kind}));
    }

    fn missing(&mut self, loc: Loc) {
        self.err(loc, "field required", "value_error.missing");
    }

    fn string(
        &mut self,
        obj: &Map<String, Value>,
        key: &str,
        loc: &Loc,
        required: bool,
    ) -> Option<String> {
        match obj.get(key) {
            Some(Value::String(s)) => Some(s.clone()),
            None | Some(Value::Null) if !required => None,
            None | Some(Value::Null) => {
                self.missing(at(loc, key));
                None
            }
            Some(_) => {
                self.err(at(loc, key), "str type expected", "type_error.str");
                None
            }
        }
    }

    fn int(
        &mut self,
        obj: &Map<String, Value>,
        key: &str,
        loc: &Loc,
        required: bool,
    ) -> Option<f64> {
        match obj.get(key) {
            Some(Value::Number(n)) => n.as_f64(),
            None | Some(Value::Null) if !required => None,
            None | Some(Value::Null) => {
                self.missing(at(loc, key));
                None
            }
            Some(_) => {
                self.err(
                    at(loc, key),
                    "value is not a valid integer",
                    "type_error.integer",
                );
                None
            }
        }
    }

    fn dict<'a>(
        &mut self,
        v: Option<&'a Value>,
        loc: Loc,
        required: bool,
    ) -> Option<&'a Map<String, Value>> {
        match v {
            Some(Value::Object(m)) => Some(m),
            None | Some(Value::Null) if !required => None,
            None | Some(Value::Null) => {
                self.missing(loc);
                None
            }
            Some(_) => {
                self.err(loc, "value is not a valid dict", "type_error.dict");
                None
            }
        }
    }

    fn list<'a>(
        &mut self,
        v: Option<&'a Value>,
        loc: Loc,
        required: bool,
    ) -> Option<&'a Vec<Value>> {
        match v {
            Some(Value::Array(a)) => Some(a),
            None | Some(Value::Null) if !required => None,
            None | Some(Value::Null) => {
                self.missing(loc);
                None
            }
            Some(_) => {
                self.err(loc, "value is not a valid list", "type_error.list");
                None
            }
        }
    }

    fn choice(
        &mut self,
        obj: &Map<String, Value>,
        key: &str,
        loc: &Loc,
        allowed: &[&str],
    ) -> Option<String> {
        let s = self.string(obj, key, loc, false)?;
        if allowed.iter().any(|a| a.eq_ignore_ascii_case(&s)) {
            Some(s)
        } else {
            let permitted = allowed
                .iter()
                .map(|a| format!("'{a}'"))
                .collect::<Vec<_>>()
                .join(", ");
            self.err(
                at(loc, key),
                &format!("value is not a valid enumeration member; permitted: {permitted}"),
                "type_error.enum",
            );
            None
        }
    }

    fn element(&mut self, v: &Value, loc: Loc) -> Option<System2Element> {
        let obj = self.dict(Some(v), loc.clone(), true)?;
        let x = self.int(obj, "x", &loc, true);
        let y = self.int(obj, "y", &loc, true);
        let w = self.int(obj, "width", &loc, true);
        let h = self.int(obj, "height", &loc, true);
        let text = self.string(obj, "text", &loc, false);
        let kind = self.string(obj, "type", &loc, true);
        let selector = self.string(obj, "selector", &loc, true);
        Some(System2Element {
            x: x?,
            y: y?,
            width: w?,
            height: h?,
            text: text.unwrap_or_default(),
            kind: kind?,
            selector: selector?,
        })
    }
}

/// Validate a parsed body; Err holds FastAPI's `detail` list.
pub fn check(body: &Value) -> Result<Checked, Vec<Value>> {
    let mut v = V { errors: Vec::new() };
    let root: Loc = vec![json!("body")];
    let Some(obj) = v.dict(Some(body), root.clone(), true) else {
        return Err(v.errors);
    };
    let task = v.string(obj, "task", &root, true);
    let screenshot = v.string(obj, "screenshot", &root, true);
    let previous_screenshot = v.string(obj, "previous_screenshot", &root, false);
    let mut context = UserContext::default();
    if let Some(c) = v.dict(obj.get("context"), at(&root, "context"), true) {
        let cl = at(&root, "context");
        context.age = v.int(c, "age", &cl, false).map(|a| a as i64);
        context.domain_familiarity = v.choice(
            c,
            "domain_familiarity",
            &cl,
            &["beginner", "intermediate", "expert"],
        );
        context.domain = v.string(c, "domain", &cl, false);
        context.tech_savviness = v.choice(c, "tech_savviness", &cl, &["LOW", "MEDIUM", "HIGH"]);
    }
    let mut scratchpad = Vec::new();
    if let Some(items) = v.list(obj.get("scratchpad"), at(&root, "scratchpad"), false) {
        for (i, item) in items.iter().enumerate() {
            let il = at(&at(&root, "scratchpad"), i);
            if let Some(m) = v.dict(Some(item), il.clone(), true) {
                if let Some(c) = v.string(m, "content", &il, true) {
                    scratchpad.push(c);
                }
            }
        }
    }
    let mut elements = Vec::new();
    if let Some(items) = v.list(obj.get("elements"), at(&root, "elements"), true) {
        for (i, item) in items.iter().enumerate() {
            if let Some(e) = v.element(item, at(&at(&root, "elements"), i)) {
                elements.push(e);
            }
        }
    }
    let mut prev_action = None;
    let pl = at(&root, "prev_action");
    if let Some(p) = v.dict(obj.get("prev_action"), pl.clone(), false) {
        let action = v.string(p, "action", &pl, true);
        let bounding = match p.get("bounding") {
            None | Some(Value::Null) => {
                v.missing(at(&pl, "bounding"));
                None
            }
            Some(b) => v.element(b, at(&pl, "bounding")),
        };
        if let (Some(a), Some(b)) = (action, bounding) {
            prev_action = Some((a, b));
        }
    }
    match (task, screenshot) {
        (Some(task), Some(screenshot)) if v.errors.is_empty() => Ok(Checked {
            task,
            screenshot,
            previous_screenshot,
            context,
            scratchpad,
            elements,
            prev_action,
        }),
        _ => Err(v.errors),
    }
}
