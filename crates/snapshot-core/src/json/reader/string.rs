//! serde_json's `StrRead::parse_str` (with UTF-8 validation of `\u`
//! escapes), ported step for step. See [`crate::json::reader`].

use super::{
    Reader, Result, CONTROL_CHAR, END_OF_HEX_ESCAPE, EOF_STRING, INVALID_ESCAPE, LONE_SURROGATE,
};

impl Reader<'_> {
    /// `StrRead::parse_str` (the opening `"` already eaten).
    pub(crate) fn parse_str(&mut self) -> Result<String> {
        let mut out = String::new();
        let mut start = self.index;
        loop {
            while self
                .peek()
                .is_some_and(|c| c != b'"' && c != b'\\' && c >= 0x20)
            {
                self.index += 1;
            }
            let raw = self.src.get(start..self.index).unwrap_or_default();
            match self.peek() {
                None => return Err(self.error(EOF_STRING)),
                Some(b'"') => {
                    out.push_str(raw);
                    self.index += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    out.push_str(raw);
                    self.index += 1;
                    self.parse_escape(&mut out)?;
                    start = self.index;
                }
                Some(_) => {
                    self.index += 1;
                    return Err(self.error(CONTROL_CHAR));
                }
            }
        }
    }

    fn parse_escape(&mut self, out: &mut String) -> Result<()> {
        let Some(ch) = self.next_char() else {
            return Err(self.error(EOF_STRING));
        };
        out.push(match ch {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\x08',
            b'f' => '\x0c',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => return self.parse_unicode_escape(out),
            _ => return Err(self.error(INVALID_ESCAPE)),
        });
        Ok(())
    }

    /// `parse_unicode_escape` with `validate` (strings must be UTF-8).
    fn parse_unicode_escape(&mut self, out: &mut String) -> Result<()> {
        let n = self.decode_hex_escape()?;
        if (0xDC00..=0xDFFF).contains(&n) {
            return Err(self.error(LONE_SURROGATE));
        }
        let code = if (0xD800..=0xDBFF).contains(&n) {
            for expected in [b'\\', b'u'] {
                let Some(c) = self.peek() else {
                    return Err(self.error(EOF_STRING));
                };
                self.eat_char();
                if c != expected {
                    return Err(self.error(END_OF_HEX_ESCAPE));
                }
            }
            let n2 = self.decode_hex_escape()?;
            if !(0xDC00..=0xDFFF).contains(&n2) {
                return Err(self.error(LONE_SURROGATE));
            }
            ((((n - 0xD800) as u32) << 10) | (n2 - 0xDC00) as u32) + 0x1_0000
        } else {
            n as u32
        };
        out.push(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
        Ok(())
    }

    fn decode_hex_escape(&mut self) -> Result<u16> {
        let Some(digits) = self.bytes().get(self.index..self.index + 4) else {
            self.index = self.src.len();
            return Err(self.error(EOF_STRING));
        };
        let value = digits.iter().try_fold(0u16, |acc, &d| {
            let v = (d as char).to_digit(16)?;
            Some(acc << 4 | v as u16)
        });
        self.index += 4;
        value.ok_or_else(|| self.error(INVALID_ESCAPE))
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;

    #[test]
    fn strings_unescape_like_serde_json() {
        let src = r#"a\"\\\/\b\f\n\r\té\u00e9\ud83d\ude00""#;
        let mut r = Reader::new(src);
        assert_eq!(
            r.parse_str().unwrap(),
            "a\"\\/\u{8}\u{c}\n\r\téé😀".to_string()
        );
        for (bad, msg) in [
            (r#"\ud800x"#, END_OF_HEX_ESCAPE),
            (r#"\udc00""#, LONE_SURROGATE),
            (r#"\u12"#, EOF_STRING),
            (r#"\uzzzz""#, INVALID_ESCAPE),
            ("a\u{1}\"", CONTROL_CHAR),
            ("abc", EOF_STRING),
        ] {
            let err = Reader::new(bad).parse_str().unwrap_err();
            assert!(err.to_string().starts_with(msg), "{bad}: {err}");
        }
    }
}
