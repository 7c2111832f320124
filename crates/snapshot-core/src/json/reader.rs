//! A small strict JSON reader (RFC 8259) into a [`Value`] tree, for the
//! options of `snapshot(options)` ([`super::options`] maps the tree onto
//! the option types). Strict where serde_json is: only JSON whitespace, no
//! trailing commas or text, no control characters or lone surrogates in
//! strings, nesting at most [`MAX_DEPTH`]. One rule beyond the syntax: an
//! object may not repeat a key (every object the options accept is a struct,
//! and serde's derive rejects a repeated field).
//!
//! Numbers keep what serde_json would read from the literal ([`Num`]), so
//! `1.0`, `1e2` and `-0` are not integers, and a float has the very bits
//! serde_json's parser (default features) gives it.

/// Any JSON value; an object keeps its entries in order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Null,
    Bool(bool),
    Num(Num),
    Str(String),
    Arr(Vec<Value>),
    Obj(Vec<(String, Value)>),
}

/// A JSON number as serde_json reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Num {
    /// The value when the literal is a plain integer in `i64` (no `.`, no
    /// exponent, not `-0`): serde_json hands only those to integer fields.
    pub(crate) int: Option<i64>,
    /// The value as a float, computed as serde_json computes it.
    pub(crate) float: f64,
}

/// serde_json's recursion limit (its 128th `[` or `{` is an error).
const MAX_DEPTH: u32 = 127;

/// Parses a whole JSON text; the error says what and at which byte.
pub(crate) fn parse(src: &str) -> Result<Value> {
    let mut p = Parser {
        src,
        i: 0,
        depth: 0,
    };
    let value = p.value()?;
    p.ws();
    if p.i < src.len() {
        return Err(p.err("unexpected text after the value"));
    }
    Ok(value)
}

struct Parser<'a> {
    src: &'a str,
    i: usize,
    depth: u32,
}

type Result<T> = std::result::Result<T, String>;

impl Parser<'_> {
    fn err(&self, what: &str) -> String {
        format!("not valid JSON: {what} at byte {}", self.i)
    }

    fn peek(&self) -> Option<u8> {
        self.src.as_bytes().get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        let hit = self.peek() == Some(c);
        self.i += usize::from(hit);
        hit
    }

    fn digit(&mut self) -> Option<u8> {
        let d = self.peek().filter(u8::is_ascii_digit)?;
        self.i += 1;
        Some(d - b'0')
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\t' | b'\r')) {
            self.i += 1;
        }
    }

    fn value(&mut self) -> Result<Value> {
        self.ws();
        let next = self.peek();
        match next {
            Some(b'{' | b'[') => {
                if self.depth == MAX_DEPTH {
                    return Err(self.err("nested too deeply"));
                }
                self.depth += 1;
                self.i += 1;
                let value = if next == Some(b'{') {
                    self.object()
                } else {
                    self.array()
                };
                self.depth -= 1;
                value
            }
            Some(b'"') => {
                self.i += 1;
                self.string().map(Value::Str)
            }
            Some(b'-' | b'0'..=b'9') => self.number().map(Value::Num),
            _ => {
                let rest = self.src.get(self.i..).unwrap_or_default();
                for (word, value) in [
                    ("null", Value::Null),
                    ("true", Value::Bool(true)),
                    ("false", Value::Bool(false)),
                ] {
                    if rest.starts_with(word) {
                        self.i += word.len();
                        return Ok(value);
                    }
                }
                Err(self.err("expected a value"))
            }
        }
    }

    /// After the `{`.
    fn object(&mut self) -> Result<Value> {
        let mut entries: Vec<(String, Value)> = Vec::new();
        self.ws();
        if self.eat(b'}') {
            return Ok(Value::Obj(entries));
        }
        loop {
            self.ws();
            if !self.eat(b'"') {
                return Err(self.err("expected a string key"));
            }
            let key = self.string()?;
            if entries.iter().any(|(k, _)| *k == key) {
                return Err(format!("duplicate field `{key}`"));
            }
            self.ws();
            if !self.eat(b':') {
                return Err(self.err("expected `:`"));
            }
            let value = self.value()?;
            entries.push((key, value));
            self.ws();
            if self.eat(b'}') {
                return Ok(Value::Obj(entries));
            }
            if !self.eat(b',') {
                return Err(self.err("expected `,` or `}`"));
            }
        }
    }

    /// After the `[`.
    fn array(&mut self) -> Result<Value> {
        let mut items = Vec::new();
        self.ws();
        if self.eat(b']') {
            return Ok(Value::Arr(items));
        }
        loop {
            items.push(self.value()?);
            self.ws();
            if self.eat(b']') {
                return Ok(Value::Arr(items));
            }
            if !self.eat(b',') {
                return Err(self.err("expected `,` or `]`"));
            }
        }
    }

    /// After the opening `"`.
    fn string(&mut self) -> Result<String> {
        let mut out = String::new();
        loop {
            let start = self.i;
            while self
                .peek()
                .is_some_and(|c| c != b'"' && c != b'\\' && c >= 0x20)
            {
                self.i += 1;
            }
            // Stopped at an ASCII byte (or the end): a char boundary.
            out.push_str(self.src.get(start..self.i).unwrap_or_default());
            match self.peek() {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    out.push(self.escape()?);
                }
                Some(_) => return Err(self.err("control character in a string")),
                None => return Err(self.err("unterminated string")),
            }
        }
    }

    /// After the `\`.
    fn escape(&mut self) -> Result<char> {
        let c = self.peek();
        self.i += 1;
        Ok(match c {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\x08',
            Some(b'f') => '\x0c',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                let mut code = self.hex4()?;
                if (0xD800..0xDC00).contains(&code) {
                    if !(self.eat(b'\\') && self.eat(b'u')) {
                        return Err(self.err("lone surrogate in a \\u escape"));
                    }
                    let low = self.hex4()?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return Err(self.err("lone surrogate in a \\u escape"));
                    }
                    code = 0x1_0000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                }
                // `None` only for a lone trailing surrogate.
                return char::from_u32(code)
                    .ok_or_else(|| self.err("lone surrogate in a \\u escape"));
            }
            _ => return Err(self.err("invalid escape")),
        })
    }

    fn hex4(&mut self) -> Result<u32> {
        let mut code = 0;
        for _ in 0..4 {
            let digit = self.peek().and_then(|c| char::from(c).to_digit(16));
            let digit = digit.ok_or_else(|| self.err("invalid \\u escape"))?;
            self.i += 1;
            code = code * 16 + digit;
        }
        Ok(code)
    }

    /// serde_json's number reading (no `float_roundtrip`): up to 19-20
    /// significant digits are kept in a `u64`; an integer digit past them
    /// scales by ten, a decimal one past them is dropped; then one
    /// multiplication or division by a power of ten.
    fn number(&mut self) -> Result<Num> {
        let negative = self.eat(b'-');
        let (mut sig, mut exp, mut whole) = (0u64, 0i32, true);
        match self.digit() {
            Some(0) => {}
            Some(first) => {
                sig = u64::from(first);
                while let Some(d) = self.digit() {
                    if whole && !overflows(sig, d) {
                        sig = sig * 10 + u64::from(d);
                    } else {
                        whole = false;
                        exp = exp.saturating_add(1);
                    }
                }
            }
            None => return Err(self.err("invalid number")),
        }
        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Err(self.err("invalid number (leading zero)"));
        }
        if self.eat(b'.') {
            whole = false;
            let (mut any, mut kept) = (false, true);
            while let Some(d) = self.digit() {
                any = true;
                kept = kept && !overflows(sig, d);
                if kept {
                    sig = sig * 10 + u64::from(d);
                    exp = exp.saturating_sub(1);
                }
            }
            if !any {
                return Err(self.err("invalid number (no digit after `.`)"));
            }
        }
        if self.eat(b'e') || self.eat(b'E') {
            whole = false;
            let up = !self.eat(b'-');
            if up {
                self.eat(b'+');
            }
            let Some(mut e) = self.digit().map(i32::from) else {
                return Err(self.err("invalid number (no digit in the exponent)"));
            };
            let mut huge = false;
            while let Some(d) = self.digit() {
                let d = i32::from(d);
                huge = huge || e > (i32::MAX - d) / 10;
                if !huge {
                    e = e * 10 + d;
                }
            }
            if huge {
                if sig != 0 && up {
                    return Err(self.err("number out of range"));
                }
                return Ok(Num {
                    int: None,
                    float: if negative { -0.0 } else { 0.0 },
                });
            }
            exp = if up {
                exp.saturating_add(e)
            } else {
                exp.saturating_sub(e)
            };
        }
        let float = scale(sig, exp).ok_or_else(|| self.err("number out of range"))?;
        let int = if !whole || (negative && sig == 0) {
            None
        } else if negative {
            (sig <= 1 << 63).then(|| (sig as i64).wrapping_neg())
        } else {
            i64::try_from(sig).ok()
        };
        Ok(Num {
            int,
            float: if negative { -float } else { float },
        })
    }
}

/// Whether `sig * 10 + d` overflows a `u64`.
fn overflows(sig: u64, d: u8) -> bool {
    sig >= u64::MAX / 10 && (sig > u64::MAX / 10 || u64::from(d) > u64::MAX % 10)
}

/// `sig × 10^exp` as serde_json's `f64_from_parts` computes it; `None`
/// when it overflows.
fn scale(sig: u64, mut exp: i32) -> Option<f64> {
    let mut f = sig as f64;
    loop {
        match POW10.get(exp.unsigned_abs() as usize) {
            Some(&pow) if exp >= 0 => {
                f *= pow;
                return f.is_finite().then_some(f);
            }
            Some(&pow) => return Some(f / pow),
            None if f == 0.0 => return Some(f),
            None if exp >= 0 => return None,
            None => {
                f /= 1e308;
                exp += 308;
            }
        }
    }
}

/// The correctly rounded `1e0 ..= 1e308` (serde_json's `POW10`).
#[rustfmt::skip]
static POW10: [f64; 309] = [
    1e000, 1e001, 1e002, 1e003, 1e004, 1e005, 1e006, 1e007, 1e008, 1e009,
    1e010, 1e011, 1e012, 1e013, 1e014, 1e015, 1e016, 1e017, 1e018, 1e019,
    1e020, 1e021, 1e022, 1e023, 1e024, 1e025, 1e026, 1e027, 1e028, 1e029,
    1e030, 1e031, 1e032, 1e033, 1e034, 1e035, 1e036, 1e037, 1e038, 1e039,
    1e040, 1e041, 1e042, 1e043, 1e044, 1e045, 1e046, 1e047, 1e048, 1e049,
    1e050, 1e051, 1e052, 1e053, 1e054, 1e055, 1e056, 1e057, 1e058, 1e059,
    1e060, 1e061, 1e062, 1e063, 1e064, 1e065, 1e066, 1e067, 1e068, 1e069,
    1e070, 1e071, 1e072, 1e073, 1e074, 1e075, 1e076, 1e077, 1e078, 1e079,
    1e080, 1e081, 1e082, 1e083, 1e084, 1e085, 1e086, 1e087, 1e088, 1e089,
    1e090, 1e091, 1e092, 1e093, 1e094, 1e095, 1e096, 1e097, 1e098, 1e099,
    1e100, 1e101, 1e102, 1e103, 1e104, 1e105, 1e106, 1e107, 1e108, 1e109,
    1e110, 1e111, 1e112, 1e113, 1e114, 1e115, 1e116, 1e117, 1e118, 1e119,
    1e120, 1e121, 1e122, 1e123, 1e124, 1e125, 1e126, 1e127, 1e128, 1e129,
    1e130, 1e131, 1e132, 1e133, 1e134, 1e135, 1e136, 1e137, 1e138, 1e139,
    1e140, 1e141, 1e142, 1e143, 1e144, 1e145, 1e146, 1e147, 1e148, 1e149,
    1e150, 1e151, 1e152, 1e153, 1e154, 1e155, 1e156, 1e157, 1e158, 1e159,
    1e160, 1e161, 1e162, 1e163, 1e164, 1e165, 1e166, 1e167, 1e168, 1e169,
    1e170, 1e171, 1e172, 1e173, 1e174, 1e175, 1e176, 1e177, 1e178, 1e179,
    1e180, 1e181, 1e182, 1e183, 1e184, 1e185, 1e186, 1e187, 1e188, 1e189,
    1e190, 1e191, 1e192, 1e193, 1e194, 1e195, 1e196, 1e197, 1e198, 1e199,
    1e200, 1e201, 1e202, 1e203, 1e204, 1e205, 1e206, 1e207, 1e208, 1e209,
    1e210, 1e211, 1e212, 1e213, 1e214, 1e215, 1e216, 1e217, 1e218, 1e219,
    1e220, 1e221, 1e222, 1e223, 1e224, 1e225, 1e226, 1e227, 1e228, 1e229,
    1e230, 1e231, 1e232, 1e233, 1e234, 1e235, 1e236, 1e237, 1e238, 1e239,
    1e240, 1e241, 1e242, 1e243, 1e244, 1e245, 1e246, 1e247, 1e248, 1e249,
    1e250, 1e251, 1e252, 1e253, 1e254, 1e255, 1e256, 1e257, 1e258, 1e259,
    1e260, 1e261, 1e262, 1e263, 1e264, 1e265, 1e266, 1e267, 1e268, 1e269,
    1e270, 1e271, 1e272, 1e273, 1e274, 1e275, 1e276, 1e277, 1e278, 1e279,
    1e280, 1e281, 1e282, 1e283, 1e284, 1e285, 1e286, 1e287, 1e288, 1e289,
    1e290, 1e291, 1e292, 1e293, 1e294, 1e295, 1e296, 1e297, 1e298, 1e299,
    1e300, 1e301, 1e302, 1e303, 1e304, 1e305, 1e306, 1e307, 1e308,
];
