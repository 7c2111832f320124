//! The query language: `role=button text~'sign in' clickable=true`.
//!
//! A query is conditions separated by spaces, all of which must hold (AND).
//! A condition is `field operator value`; spaces around the operator are
//! allowed. Values are bare words (`button`, `42`, `true`, `null`) or quoted
//! with '…' or "…", where `\'`, `\"`, `\\`, `\n` and `\t` are escapes (any
//! other `\x` stands for `x`). The empty query matches every element.
//!
//! Semantics per field type (checked when the query is parsed, so evaluation
//! never fails):
//! - text (role, text, background_color_name, value): `=` / `!=` compare
//!   exactly (case-sensitive); `~` (contains), `^=` (starts with) and `$=`
//!   (ends with) ignore case (Unicode lowercase). A bare `null` means "no
//!   value": `text=null` matches elements without text, `text!=null` those
//!   with; quote it (`text='null'`) for the word. An element without a value
//!   matches no `~ ^= $=` condition and every `!=` condition with a string.
//! - numbers (id, importance, bbox.*, z_index): `= != > >= < <=`, numeric.
//! - booleans (in_viewport, is_occluded, is_primary, clickable, disabled,
//!   required): `=` / `!=` with `true` or `false`; a missing `state.disabled`
//!   or `state.required` is false.
//! - tri-state (selected, expanded: true/false/null; checked: also `mixed`):
//!   `=` / `!=`; `null` matches elements where the state does not apply
//!   (the key is absent), so `expanded=false` means "collapsed", not "not
//!   expandable".
//!
//! Results are sorted like the format: importance descending, then bbox.y.

use crate::model::{rank_cmp, rank_order, Checked, Element};
use std::fmt;

/// A syntax or type error, with the 0-based character position it points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryError {
    pub position: usize,
    pub message: String,
}

impl QueryError {
    fn at(position: usize, what: impl fmt::Display) -> Self {
        QueryError {
            position,
            message: format!("{what} at column {}", position + 1),
        }
    }
    /// 1-based column, as the message says.
    pub fn column(&self) -> usize {
        self.position + 1
    }
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for QueryError {}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Id,
    Role,
    Text,
    Importance,
    X,
    Y,
    Width,
    Height,
    InViewport,
    IsOccluded,
    ZIndex,
    IsPrimary,
    Background,
    Clickable,
    Disabled,
    Checked,
    Selected,
    Expanded,
    Required,
    Value,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Number,
    Text,
    Bool,
    TriState,
    Checked,
}

impl Field {
    fn kind(self) -> Kind {
        use Field::*;
        match self {
            Id | Importance | X | Y | Width | Height | ZIndex => Kind::Number,
            Role | Text | Background | Value => Kind::Text,
            InViewport | IsOccluded | IsPrimary | Clickable | Disabled | Required => Kind::Bool,
            Selected | Expanded => Kind::TriState,
            Checked => Kind::Checked,
        }
    }
}

/// Canonical names (listed in errors); `ALIASES` has the contract's dotted
/// paths (`visual_cues.is_primary`, `state.checked`) and short forms.
const FIELDS: &[(&str, Field)] = &[
    ("role", Field::Role),
    ("text", Field::Text),
    ("id", Field::Id),
    ("importance", Field::Importance),
    ("bbox.x", Field::X),
    ("bbox.y", Field::Y),
    ("bbox.width", Field::Width),
    ("bbox.height", Field::Height),
    ("in_viewport", Field::InViewport),
    ("is_occluded", Field::IsOccluded),
    ("z_index", Field::ZIndex),
    ("is_primary", Field::IsPrimary),
    ("background_color_name", Field::Background),
    ("clickable", Field::Clickable),
    ("disabled", Field::Disabled),
    ("checked", Field::Checked),
    ("selected", Field::Selected),
    ("expanded", Field::Expanded),
    ("required", Field::Required),
    ("value", Field::Value),
];
const ALIASES: &[(&str, Field)] = &[
    ("x", Field::X),
    ("y", Field::Y),
    ("width", Field::Width),
    ("height", Field::Height),
    ("primary", Field::IsPrimary),
    ("bg", Field::Background),
    ("is_clickable", Field::Clickable),
    ("visual_cues.is_primary", Field::IsPrimary),
    ("visual_cues.background_color_name", Field::Background),
    ("visual_cues.is_clickable", Field::Clickable),
    ("state.disabled", Field::Disabled),
    ("state.checked", Field::Checked),
    ("state.selected", Field::Selected),
    ("state.expanded", Field::Expanded),
    ("state.required", Field::Required),
    ("state.value", Field::Value),
];

fn lookup(name: &str) -> Option<Field> {
    FIELDS
        .iter()
        .chain(ALIASES)
        .find(|(n, _)| *n == name)
        .map(|(_, f)| *f)
}

/// The field names a query may use, canonical names first.
pub fn known_fields() -> Vec<&'static str> {
    FIELDS.iter().chain(ALIASES).map(|(n, _)| *n).collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Contains,
    Prefix,
    Suffix,
    Gt,
    Ge,
    Lt,
    Le,
}

const OPERATORS: &str = "= != ~ ^= $= > >= < <=";

#[derive(Debug, Clone, PartialEq)]
enum Cond {
    Number(Field, Op, f64),
    /// `None`: the bare word null. The `String` is the lowercased needle
    /// for `~ ^= $=`, the exact value for `= !=`.
    Text(Field, Op, Option<String>),
    Bool(Field, bool, bool), // field, wanted value, negated (!=)
    TriState(Field, Option<bool>, bool),
    Checked(Option<Checked>, bool),
}

/// A parsed query: parse once, evaluate against many snapshots.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    conds: Vec<Cond>,
}

struct Literal {
    text: String,
    quoted: bool,
    at: usize,
}

impl Query {
    pub fn parse(source: &str) -> Result<Query, QueryError> {
        let chars: Vec<char> = source.chars().collect();
        let mut p = Parser { chars, pos: 0 };
        let mut conds = Vec::new();
        loop {
            p.skip_spaces();
            if p.at_end() {
                break;
            }
            conds.push(p.condition()?);
            if !p.at_end() && !p.peek().is_some_and(char::is_whitespace) {
                return Err(QueryError::at(
                    p.pos,
                    format!(
                        "expected a space before the next condition, found '{}'",
                        p.rest_word()
                    ),
                ));
            }
        }
        Ok(Query { conds })
    }

    pub fn matches(&self, e: &Element) -> bool {
        self.conds.iter().all(|c| c.holds(e))
    }

    /// Indices into `elements` of the matches, most important first (then
    /// top to bottom).
    pub fn run(&self, elements: &[Element]) -> Vec<usize> {
        rank_order(elements)
            .into_iter()
            .filter(|&i| self.matches(&elements[i]))
            .collect()
    }

    /// The first of `run`, without sorting everything.
    pub fn find(&self, elements: &[Element]) -> Option<usize> {
        (0..elements.len())
            .filter(|&i| self.matches(&elements[i]))
            .min_by(|&a, &b| rank_cmp(elements, a, b))
    }
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

impl Parser {
    fn at_end(&self) -> bool {
        self.pos >= self.chars.len()
    }
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }
    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }
    /// The text from here to the next space, for messages (bounded).
    fn rest_word(&self) -> String {
        self.chars[self.pos.min(self.chars.len())..]
            .iter()
            .take_while(|c| !c.is_whitespace())
            .take(20)
            .collect()
    }

    fn condition(&mut self) -> Result<Cond, QueryError> {
        let start = self.pos;
        while self.peek().is_some_and(is_name_char) {
            self.pos += 1;
        }
        if self.pos == start {
            return Err(QueryError::at(
                start,
                format!(
                    "expected a field name (such as role or text), found '{}'",
                    self.rest_word()
                ),
            ));
        }
        let name: String = self.chars[start..self.pos].iter().collect();
        let field = lookup(&name).ok_or_else(|| {
            let known: Vec<&str> = FIELDS.iter().map(|(n, _)| *n).collect();
            QueryError::at(
                start,
                format!(
                    "unknown field '{name}' (known fields: {}; aliases: {})",
                    known.join(", "),
                    ALIASES
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })?;
        let after_name = self.pos;
        self.skip_spaces();
        let op_at = self.pos;
        let op = self.operator().ok_or_else(|| {
            let found = if self.at_end() {
                "the query ended".to_string()
            } else {
                format!("found '{}'", self.rest_word())
            };
            QueryError::at(
                if self.at_end() { after_name } else { op_at },
                format!("expected an operator ({OPERATORS}) after '{name}', {found}"),
            )
        })?;
        let op_text: String = self.chars[op_at..self.pos].iter().collect();
        self.skip_spaces();
        let lit = self.literal(&name, &op_text)?;
        compile(field, &name, op, &op_text, op_at, lit)
    }

    fn operator(&mut self) -> Option<Op> {
        let two: String = self.chars[self.pos..].iter().take(2).collect();
        let (op, len) = match two.as_str() {
            "!=" => (Op::Ne, 2),
            "^=" => (Op::Prefix, 2),
            "$=" => (Op::Suffix, 2),
            ">=" => (Op::Ge, 2),
            "<=" => (Op::Le, 2),
            _ => match self.peek()? {
                '=' => (Op::Eq, 1),
                '~' => (Op::Contains, 1),
                '>' => (Op::Gt, 1),
                '<' => (Op::Lt, 1),
                _ => return None,
            },
        };
        self.pos += len;
        Some(op)
    }

    fn literal(&mut self, name: &str, op: &str) -> Result<Literal, QueryError> {
        let at = self.pos;
        let Some(c) = self.peek() else {
            return Err(QueryError::at(
                at,
                format!("expected a value after '{name}{op}', the query ended"),
            ));
        };
        if c == '\'' || c == '"' {
            self.pos += 1;
            let mut text = String::new();
            loop {
                let Some(ch) = self.peek() else {
                    return Err(QueryError::at(
                        at,
                        format!("unterminated string: the {c} opened here is never closed"),
                    ));
                };
                self.pos += 1;
                if ch == c {
                    return Ok(Literal {
                        text,
                        quoted: true,
                        at,
                    });
                }
                if ch == '\\' {
                    let Some(esc) = self.peek() else { continue };
                    self.pos += 1;
                    text.push(match esc {
                        'n' => '\n',
                        't' => '\t',
                        other => other,
                    });
                } else {
                    text.push(ch);
                }
            }
        }
        if "=!<>~^$".contains(c) {
            return Err(QueryError::at(
                at,
                format!(
                    "expected a value after '{name}{op}', found '{}' (quote values that start with an operator character)",
                    self.rest_word()
                ),
            ));
        }
        let start = self.pos;
        while self.peek().is_some_and(|c| !c.is_whitespace()) {
            self.pos += 1;
        }
        Ok(Literal {
            text: self.chars[start..self.pos].iter().collect(),
            quoted: false,
            at,
        })
    }
}

fn compile(
    field: Field,
    name: &str,
    op: Op,
    op_text: &str,
    op_at: usize,
    lit: Literal,
) -> Result<Cond, QueryError> {
    let kind = field.kind();
    let is_null = !lit.quoted && lit.text == "null";
    let only_equality = |what: &str| {
        if matches!(op, Op::Eq | Op::Ne) {
            Ok(())
        } else {
            Err(QueryError::at(
                op_at,
                format!(
                    "operator '{op_text}' does not apply to {what} field '{name}' (use = or !=)"
                ),
            ))
        }
    };
    let bad_value = |expected: &str| {
        QueryError::at(
            lit.at,
            format!("expected {expected} for '{name}', found '{}'", lit.text),
        )
    };
    let negated = op == Op::Ne;
    match kind {
        Kind::Number => {
            if matches!(op, Op::Contains | Op::Prefix | Op::Suffix) {
                return Err(QueryError::at(
                    op_at,
                    format!("operator '{op_text}' does not apply to number field '{name}' (use = != > >= < <=)"),
                ));
            }
            let n: f64 = lit
                .text
                .trim()
                .parse()
                .ok()
                .filter(|n: &f64| n.is_finite())
                .ok_or_else(|| bad_value("a number"))?;
            Ok(Cond::Number(field, op, n))
        }
        Kind::Text => {
            if matches!(op, Op::Gt | Op::Ge | Op::Lt | Op::Le) {
                return Err(QueryError::at(
                    op_at,
                    format!("operator '{op_text}' does not apply to text field '{name}' (use = != ~ ^= $=)"),
                ));
            }
            if is_null {
                only_equality("null and the")?;
                return Ok(Cond::Text(field, op, None));
            }
            let needle = match op {
                Op::Eq | Op::Ne => lit.text,
                _ => lit.text.to_lowercase(),
            };
            Ok(Cond::Text(field, op, Some(needle)))
        }
        Kind::Bool => {
            only_equality("boolean")?;
            let b = match lit.text.as_str() {
                "true" => true,
                "false" => false,
                _ => return Err(bad_value("true or false")),
            };
            Ok(Cond::Bool(field, b, negated))
        }
        Kind::TriState => {
            only_equality("state")?;
            let v = match lit.text.as_str() {
                "true" => Some(true),
                "false" => Some(false),
                "null" => None,
                _ => return Err(bad_value("true, false or null")),
            };
            Ok(Cond::TriState(field, v, negated))
        }
        Kind::Checked => {
            only_equality("state")?;
            let v = match lit.text.as_str() {
                "true" => Some(Checked::TRUE),
                "false" => Some(Checked::FALSE),
                "mixed" => Some(Checked::MIXED),
                "null" => None,
                _ => return Err(bad_value("true, false, mixed or null")),
            };
            Ok(Cond::Checked(v, negated))
        }
    }
}

fn number(e: &Element, f: Field) -> Option<f64> {
    Some(match f {
        Field::Id => f64::from(e.id),
        Field::Importance => f64::from(e.importance),
        Field::X => e.bbox.x,
        Field::Y => e.bbox.y,
        Field::Width => e.bbox.width,
        Field::Height => e.bbox.height,
        Field::ZIndex => f64::from(e.z_index),
        _ => return None,
    })
}

fn text(e: &Element, f: Field) -> Option<&str> {
    match f {
        Field::Role => Some(e.role.as_str()),
        Field::Text => e.text.as_deref(),
        Field::Background => e.visual_cues.background_color_name.as_deref(),
        Field::Value => e.state.value.as_deref(),
        _ => None,
    }
}

fn boolean(e: &Element, f: Field) -> bool {
    match f {
        Field::InViewport => e.in_viewport,
        Field::IsOccluded => e.is_occluded,
        Field::IsPrimary => e.visual_cues.is_primary,
        Field::Clickable => e.visual_cues.is_clickable,
        Field::Disabled => e.state.is_disabled(),
        Field::Required => e.state.is_required(),
        _ => false,
    }
}

impl Cond {
    fn holds(&self, e: &Element) -> bool {
        match self {
            Cond::Number(f, op, want) => match number(e, *f) {
                // A string id is no number: it equals none and differs from all.
                None => *op == Op::Ne,
                Some(have) => match op {
                    Op::Eq => have == *want,
                    Op::Ne => have != *want,
                    Op::Gt => have > *want,
                    Op::Ge => have >= *want,
                    Op::Lt => have < *want,
                    Op::Le => have <= *want,
                    Op::Contains | Op::Prefix | Op::Suffix => false,
                },
            },
            Cond::Text(f, op, want) => {
                let have = text(e, *f);
                match (op, want) {
                    (Op::Eq, want) => have == want.as_deref(),
                    (Op::Ne, want) => have != want.as_deref(),
                    (_, None) => false,
                    (op, Some(needle)) => match have {
                        None => false,
                        Some(h) => {
                            let h = h.to_lowercase();
                            match op {
                                Op::Contains => h.contains(needle.as_str()),
                                Op::Prefix => h.starts_with(needle.as_str()),
                                Op::Suffix => h.ends_with(needle.as_str()),
                                _ => false,
                            }
                        }
                    },
                }
            }
            Cond::Bool(f, want, negated) => (boolean(e, *f) == *want) != *negated,
            Cond::TriState(f, want, negated) => {
                let have = match f {
                    Field::Selected => e.state.selected,
                    _ => e.state.expanded,
                };
                (have == *want) != *negated
            }
            Cond::Checked(want, negated) => (e.state.checked == *want) != *negated,
        }
    }
}
