//! The JSON reading half of `serde_json::from_str`, ported so the options
//! parser ([`crate::json::options`]) gives byte-for-byte the results and
//! error messages serde_json 1.0 (with serde's derive) gives, without
//! instantiating serde's generic deserializer for the option types in the
//! WebAssembly (that, with the `Content` buffering of the untagged enum,
//! was about 11 KB of the 135 KB module).
//!
//! Ported from serde_json 1.0.154 (`de.rs`, `read.rs`; MIT OR Apache-2.0),
//! default features (no `float_roundtrip`, no `arbitrary_precision`): the
//! same byte steps, the same error codes, and the same error positions
//! (`error` at the cursor, `peek_error` one past it). A differential test
//! against serde_json itself keeps it honest (`options_parse_tests.rs`).

use std::fmt;

mod number;
mod string;
mod value;

pub(crate) use number::Num;
pub(crate) use value::Value;

pub(crate) const EOF_LIST: &str = "EOF while parsing a list";
pub(crate) const EOF_OBJECT: &str = "EOF while parsing an object";
pub(crate) const EOF_STRING: &str = "EOF while parsing a string";
pub(crate) const EOF_VALUE: &str = "EOF while parsing a value";
pub(crate) const EXPECTED_COLON: &str = "expected `:`";
pub(crate) const EXPECTED_LIST_COMMA: &str = "expected `,` or `]`";
pub(crate) const EXPECTED_OBJECT_COMMA: &str = "expected `,` or `}`";
pub(crate) const EXPECTED_IDENT: &str = "expected ident";
pub(crate) const EXPECTED_VALUE: &str = "expected value";
pub(crate) const INVALID_ESCAPE: &str = "invalid escape";
pub(crate) const INVALID_NUMBER: &str = "invalid number";
pub(crate) const OUT_OF_RANGE: &str = "number out of range";
pub(crate) const CONTROL_CHAR: &str =
    "control character (\\u0000-\\u001F) found while parsing a string";
pub(crate) const KEY_MUST_BE_STRING: &str = "key must be a string";
pub(crate) const LONE_SURROGATE: &str = "lone leading surrogate in hex escape";
pub(crate) const TRAILING_COMMA: &str = "trailing comma";
pub(crate) const TRAILING_CHARACTERS: &str = "trailing characters";
pub(crate) const END_OF_HEX_ESCAPE: &str = "unexpected end of hex escape";
pub(crate) const RECURSION_LIMIT: &str = "recursion limit exceeded";

/// serde_json's `Error`: a message and where it happened; `line == 0`
/// means "not positioned yet" (serde_json's `fix_position` fills it in).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct JsonError {
    msg: String,
    line: usize,
    column: usize,
}

impl JsonError {
    /// `de::Error::custom`: positioned later by [`Reader::fix`].
    pub(crate) fn custom(msg: impl Into<String>) -> Self {
        JsonError {
            msg: msg.into(),
            line: 0,
            column: 0,
        }
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.msg)
        } else {
            write!(
                f,
                "{} at line {} column {}",
                self.msg, self.line, self.column
            )
        }
    }
}

pub(crate) type Result<T> = std::result::Result<T, JsonError>;

/// `de::Error::invalid_type` as serde_json words it.
pub(crate) fn invalid_type(unexpected: &str, expected: &str) -> JsonError {
    JsonError::custom(format!("invalid type: {unexpected}, expected {expected}"))
}

/// `de::Error::invalid_value` as serde_json words it.
pub(crate) fn invalid_value(unexpected: &str, expected: &str) -> JsonError {
    JsonError::custom(format!("invalid value: {unexpected}, expected {expected}"))
}

/// serde_json's `Deserializer<StrRead>`: a cursor over the input.
pub(crate) struct Reader<'a> {
    src: &'a str,
    index: usize,
    remaining_depth: u8,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(src: &'a str) -> Self {
        Reader {
            src,
            index: 0,
            remaining_depth: 128,
        }
    }

    fn bytes(&self) -> &'a [u8] {
        self.src.as_bytes()
    }

    pub(crate) fn peek(&self) -> Option<u8> {
        self.bytes().get(self.index).copied()
    }

    pub(crate) fn peek_or_null(&self) -> u8 {
        self.peek().unwrap_or(0)
    }

    pub(crate) fn eat_char(&mut self) {
        self.index += 1;
    }

    pub(crate) fn next_char(&mut self) -> Option<u8> {
        let c = self.peek();
        if c.is_some() {
            self.index += 1;
        }
        c
    }

    fn at(&self, index: usize, msg: &str) -> JsonError {
        let before = self.bytes().get(..index).unwrap_or(self.bytes());
        let start_of_line = before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1);
        let line = 1 + before[..start_of_line]
            .iter()
            .filter(|&&c| c == b'\n')
            .count();
        JsonError {
            msg: msg.to_string(),
            line,
            column: before.len() - start_of_line,
        }
    }

    /// An error at the cursor.
    pub(crate) fn error(&self, msg: &str) -> JsonError {
        self.at(self.index, msg)
    }

    /// An error one byte past the cursor (capped at the end).
    pub(crate) fn peek_error(&self, msg: &str) -> JsonError {
        self.at((self.index + 1).min(self.src.len()), msg)
    }

    /// serde_json's `fix_position`: a custom error gets the cursor's position.
    pub(crate) fn fix(&self, err: JsonError) -> JsonError {
        if err.line == 0 {
            self.error(&err.msg)
        } else {
            err
        }
    }

    pub(crate) fn parse_whitespace(&mut self) -> Option<u8> {
        loop {
            match self.peek() {
                Some(b' ' | b'\n' | b'\t' | b'\r') => self.eat_char(),
                other => return other,
            }
        }
    }

    /// `check_recursion!`, the entering half (the cursor is on `[` or `{`).
    pub(crate) fn enter(&mut self) -> Result<()> {
        self.remaining_depth -= 1;
        if self.remaining_depth == 0 {
            return Err(self.peek_error(RECURSION_LIMIT));
        }
        Ok(())
    }

    /// `check_recursion!`, the leaving half.
    pub(crate) fn leave(&mut self) {
        self.remaining_depth += 1;
    }

    /// `Deserializer::end`: only whitespace may follow the value.
    pub(crate) fn end(&mut self) -> Result<()> {
        match self.parse_whitespace() {
            Some(_) => Err(self.peek_error(TRAILING_CHARACTERS)),
            None => Ok(()),
        }
    }

    pub(crate) fn parse_ident(&mut self, ident: &[u8]) -> Result<()> {
        for &expected in ident {
            match self.next_char() {
                None => return Err(self.error(EOF_VALUE)),
                Some(next) if next != expected => return Err(self.error(EXPECTED_IDENT)),
                Some(_) => {}
            }
        }
        Ok(())
    }

    pub(crate) fn parse_object_colon(&mut self) -> Result<()> {
        match self.parse_whitespace() {
            Some(b':') => {
                self.eat_char();
                Ok(())
            }
            Some(_) => Err(self.peek_error(EXPECTED_COLON)),
            None => Err(self.peek_error(EOF_OBJECT)),
        }
    }

    pub(crate) fn end_seq(&mut self) -> Result<()> {
        match self.parse_whitespace() {
            Some(b']') => {
                self.eat_char();
                Ok(())
            }
            Some(b',') => {
                self.eat_char();
                match self.parse_whitespace() {
                    Some(b']') => Err(self.peek_error(TRAILING_COMMA)),
                    _ => Err(self.peek_error(TRAILING_CHARACTERS)),
                }
            }
            Some(_) => Err(self.peek_error(TRAILING_CHARACTERS)),
            None => Err(self.peek_error(EOF_LIST)),
        }
    }

    pub(crate) fn end_map(&mut self) -> Result<()> {
        match self.parse_whitespace() {
            Some(b'}') => {
                self.eat_char();
                Ok(())
            }
            Some(b',') => Err(self.peek_error(TRAILING_COMMA)),
            Some(_) => Err(self.peek_error(TRAILING_CHARACTERS)),
            None => Err(self.peek_error(EOF_OBJECT)),
        }
    }

    /// `SeqAccess::next_element_seed`'s `has_next_element`.
    pub(crate) fn has_next_element(&mut self, first: &mut bool) -> Result<bool> {
        let Some(peek) = self.parse_whitespace() else {
            return Err(self.peek_error(EOF_LIST));
        };
        if peek == b']' {
            Ok(false)
        } else if *first {
            *first = false;
            Ok(true)
        } else if peek == b',' {
            self.eat_char();
            match self.parse_whitespace() {
                Some(b']') => Err(self.peek_error(TRAILING_COMMA)),
                Some(_) => Ok(true),
                None => Err(self.peek_error(EOF_VALUE)),
            }
        } else {
            Err(self.peek_error(EXPECTED_LIST_COMMA))
        }
    }

    /// `MapAccess::next_key_seed`'s `has_next_key`.
    pub(crate) fn has_next_key(&mut self, first: &mut bool) -> Result<bool> {
        let Some(peek) = self.parse_whitespace() else {
            return Err(self.peek_error(EOF_OBJECT));
        };
        if peek == b'}' {
            Ok(false)
        } else if *first {
            *first = false;
            if peek == b'"' {
                Ok(true)
            } else {
                Err(self.peek_error(KEY_MUST_BE_STRING))
            }
        } else if peek == b',' {
            self.eat_char();
            match self.parse_whitespace() {
                Some(b'"') => Ok(true),
                Some(b'}') => Err(self.peek_error(TRAILING_COMMA)),
                Some(_) => Err(self.peek_error(KEY_MUST_BE_STRING)),
                None => Err(self.peek_error(EOF_VALUE)),
            }
        } else {
            Err(self.peek_error(EXPECTED_OBJECT_COMMA))
        }
    }

    /// `MapKey` deserialised as a string (the cursor is on the `"`).
    pub(crate) fn map_key(&mut self) -> Result<String> {
        self.eat_char();
        self.parse_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_bytes() {
        let mut r = Reader::new("{\n  \"é\": x");
        assert_eq!(r.parse_whitespace(), Some(b'{'));
        r.eat_char();
        assert_eq!(r.parse_whitespace(), Some(b'"'));
        assert_eq!(r.error("m").to_string(), "m at line 2 column 2");
        assert_eq!(r.peek_error("m").to_string(), "m at line 2 column 3");
        assert_eq!(JsonError::custom("c").to_string(), "c");
        assert_eq!(
            r.fix(JsonError::custom("c")).to_string(),
            "c at line 2 column 2"
        );
    }
}
