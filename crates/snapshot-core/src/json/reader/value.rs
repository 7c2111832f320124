//! Values serde_json reads without a target type: what a type error
//! describes (`peek_invalid_type`), and any value as serde's `Content`
//! buffers it for an untagged enum (`parse_any`). See [`crate::json::reader`].

use super::{invalid_type, JsonError, Num, Reader, Result, EOF_VALUE, EXPECTED_VALUE};

/// Any JSON value, as serde's `Content` buffers it for an untagged enum.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Null,
    Bool(bool),
    Num(Num),
    Str(String),
    Seq(Vec<Value>),
    Map(Vec<(String, Value)>),
}

impl Reader<'_> {
    /// `peek_invalid_type`: consumes a scalar to describe it.
    pub(crate) fn peek_invalid_type(&mut self, expected: &str) -> JsonError {
        let err = match self.peek_or_null() {
            b'n' => {
                self.eat_char();
                if let Err(err) = self.parse_ident(b"ull") {
                    return err;
                }
                invalid_type("null", expected)
            }
            b't' => {
                self.eat_char();
                if let Err(err) = self.parse_ident(b"rue") {
                    return err;
                }
                invalid_type("boolean `true`", expected)
            }
            b'f' => {
                self.eat_char();
                if let Err(err) = self.parse_ident(b"alse") {
                    return err;
                }
                invalid_type("boolean `false`", expected)
            }
            c @ (b'-' | b'0'..=b'9') => {
                if c == b'-' {
                    self.eat_char();
                }
                match self.parse_integer(c != b'-') {
                    Ok(n) => invalid_type(&n.unexpected(), expected),
                    Err(err) => return err,
                }
            }
            b'"' => {
                self.eat_char();
                match self.parse_str() {
                    Ok(s) => invalid_type(&format!("string {s:?}"), expected),
                    Err(err) => return err,
                }
            }
            b'[' => invalid_type("sequence", expected),
            b'{' => invalid_type("map", expected),
            _ => self.peek_error(EXPECTED_VALUE),
        };
        self.fix(err)
    }

    /// `deserialize_any` into serde's `Content` (what an untagged enum
    /// buffers): any value, with serde_json's syntax errors.
    pub(crate) fn parse_any(&mut self) -> Result<Value> {
        let Some(peek) = self.parse_whitespace() else {
            return Err(self.peek_error(EOF_VALUE));
        };
        match peek {
            b'n' => {
                self.eat_char();
                self.parse_ident(b"ull")?;
                Ok(Value::Null)
            }
            b't' | b'f' => {
                self.eat_char();
                self.parse_ident(if peek == b't' { b"rue" } else { b"alse" })?;
                Ok(Value::Bool(peek == b't'))
            }
            b'-' => {
                self.eat_char();
                self.parse_integer(false).map(Value::Num)
            }
            b'0'..=b'9' => self.parse_integer(true).map(Value::Num),
            b'"' => {
                self.eat_char();
                self.parse_str().map(Value::Str)
            }
            b'[' => {
                self.enter()?;
                self.eat_char();
                let ret = self.any_elements();
                self.leave();
                let end = self.end_seq();
                ret.and_then(|v| end.map(|()| Value::Seq(v)))
            }
            b'{' => {
                self.enter()?;
                self.eat_char();
                let ret = self.any_entries();
                self.leave();
                let end = self.end_map();
                ret.and_then(|v| end.map(|()| Value::Map(v)))
            }
            _ => Err(self.peek_error(EXPECTED_VALUE)),
        }
    }

    fn any_elements(&mut self) -> Result<Vec<Value>> {
        let mut items = Vec::new();
        let mut first = true;
        while self.has_next_element(&mut first)? {
            items.push(self.parse_any()?);
        }
        Ok(items)
    }

    fn any_entries(&mut self) -> Result<Vec<(String, Value)>> {
        let mut entries = Vec::new();
        let mut first = true;
        while self.has_next_key(&mut first)? {
            let key = self.map_key()?;
            self.parse_object_colon()?;
            entries.push((key, self.parse_any()?));
        }
        Ok(entries)
    }
}
