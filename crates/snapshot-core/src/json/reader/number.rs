//! serde_json's number parsing (default features: no `float_roundtrip`),
//! ported step for step so the options parser reads every number, and
//! reports every malformed one, exactly as `serde_json::from_str` did.
//! See [`crate::json::reader`].

use super::{Reader, Result, EOF_VALUE, INVALID_NUMBER, OUT_OF_RANGE};

/// A parsed JSON number, as serde_json's `ParserNumber`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Num {
    U64(u64),
    I64(i64),
    F64(f64),
}

impl Num {
    /// serde's `Unexpected` for the number, as serde_json prints it.
    pub(crate) fn unexpected(self) -> String {
        match self {
            Num::U64(v) => format!("integer `{v}`"),
            Num::I64(v) => format!("integer `{v}`"),
            // serde_json prints floats in errors with the same shortest
            // round-trip formatter it serialises them with.
            Num::F64(v) => format!(
                "floating point `{}`",
                serde_json::to_string(&v).unwrap_or_default()
            ),
        }
    }
}

/// serde_json's `overflow!(a * 10 + b, max)`.
fn overflows_u64(a: u64, b: u64) -> bool {
    a >= u64::MAX / 10 && (a > u64::MAX / 10 || b > u64::MAX % 10)
}

fn overflows_i32(a: i32, b: i32) -> bool {
    a >= i32::MAX / 10 && (a > i32::MAX / 10 || b > i32::MAX % 10)
}

impl Reader<'_> {
    /// `parse_integer` (a leading `-` already eaten when `!positive`).
    pub(crate) fn parse_integer(&mut self, positive: bool) -> Result<Num> {
        let Some(next) = self.next_char() else {
            return Err(self.error(EOF_VALUE));
        };
        match next {
            b'0' => match self.peek_or_null() {
                b'0'..=b'9' => Err(self.peek_error(INVALID_NUMBER)),
                _ => self.parse_number(positive, 0),
            },
            c @ b'1'..=b'9' => {
                let mut significand = (c - b'0') as u64;
                loop {
                    match self.peek_or_null() {
                        c @ b'0'..=b'9' => {
                            let digit = (c - b'0') as u64;
                            if overflows_u64(significand, digit) {
                                return self
                                    .parse_long_integer(positive, significand)
                                    .map(Num::F64);
                            }
                            self.eat_char();
                            significand = significand * 10 + digit;
                        }
                        _ => return self.parse_number(positive, significand),
                    }
                }
            }
            _ => Err(self.error(INVALID_NUMBER)),
        }
    }

    fn parse_number(&mut self, positive: bool, significand: u64) -> Result<Num> {
        Ok(match self.peek_or_null() {
            b'.' => Num::F64(self.parse_decimal(positive, significand, 0)?),
            b'e' | b'E' => Num::F64(self.parse_exponent(positive, significand, 0)?),
            _ if positive => Num::U64(significand),
            _ => {
                let neg = (significand as i64).wrapping_neg();
                // A float on underflow, or for `-0`.
                if neg >= 0 {
                    Num::F64(-(significand as f64))
                } else {
                    Num::I64(neg)
                }
            }
        })
    }

    fn parse_decimal(&mut self, positive: bool, mut significand: u64, before: i32) -> Result<f64> {
        self.eat_char();
        let mut after = 0;
        while let c @ b'0'..=b'9' = self.peek_or_null() {
            let digit = (c - b'0') as u64;
            if overflows_u64(significand, digit) {
                return self.parse_decimal_overflow(positive, significand, before + after);
            }
            self.eat_char();
            significand = significand * 10 + digit;
            after -= 1;
        }
        // At least one digit after the decimal point.
        if after == 0 {
            return Err(match self.peek() {
                Some(_) => self.peek_error(INVALID_NUMBER),
                None => self.peek_error(EOF_VALUE),
            });
        }
        let exponent = before + after;
        match self.peek_or_null() {
            b'e' | b'E' => self.parse_exponent(positive, significand, exponent),
            _ => self.f64_from_parts(positive, significand, exponent),
        }
    }

    fn parse_exponent(&mut self, positive: bool, significand: u64, starting: i32) -> Result<f64> {
        self.eat_char();
        let positive_exp = match self.peek_or_null() {
            b'+' => {
                self.eat_char();
                true
            }
            b'-' => {
                self.eat_char();
                false
            }
            _ => true,
        };
        let Some(next) = self.next_char() else {
            return Err(self.error(EOF_VALUE));
        };
        let mut exp = match next {
            c @ b'0'..=b'9' => (c - b'0') as i32,
            _ => return Err(self.error(INVALID_NUMBER)),
        };
        while let c @ b'0'..=b'9' = self.peek_or_null() {
            self.eat_char();
            let digit = (c - b'0') as i32;
            if overflows_i32(exp, digit) {
                return self.parse_exponent_overflow(positive, significand == 0, positive_exp);
            }
            exp = exp * 10 + digit;
        }
        let final_exp = if positive_exp {
            starting.saturating_add(exp)
        } else {
            starting.saturating_sub(exp)
        };
        self.f64_from_parts(positive, significand, final_exp)
    }

    fn f64_from_parts(
        &mut self,
        positive: bool,
        significand: u64,
        mut exponent: i32,
    ) -> Result<f64> {
        let mut f = significand as f64;
        loop {
            match POW10.get(exponent.wrapping_abs() as usize) {
                Some(&pow) => {
                    if exponent >= 0 {
                        f *= pow;
                        if f.is_infinite() {
                            return Err(self.error(OUT_OF_RANGE));
                        }
                    } else {
                        f /= pow;
                    }
                    break;
                }
                None => {
                    if f == 0.0 {
                        break;
                    }
                    if exponent >= 0 {
                        return Err(self.error(OUT_OF_RANGE));
                    }
                    f /= 1e308;
                    exponent += 308;
                }
            }
        }
        Ok(if positive { f } else { -f })
    }

    fn parse_long_integer(&mut self, positive: bool, significand: u64) -> Result<f64> {
        let mut exponent = 0;
        loop {
            match self.peek_or_null() {
                b'0'..=b'9' => {
                    self.eat_char();
                    exponent += 1;
                }
                b'.' => return self.parse_decimal(positive, significand, exponent),
                b'e' | b'E' => return self.parse_exponent(positive, significand, exponent),
                _ => return self.f64_from_parts(positive, significand, exponent),
            }
        }
    }

    fn parse_decimal_overflow(
        &mut self,
        positive: bool,
        significand: u64,
        exponent: i32,
    ) -> Result<f64> {
        while let b'0'..=b'9' = self.peek_or_null() {
            self.eat_char();
        }
        match self.peek_or_null() {
            b'e' | b'E' => self.parse_exponent(positive, significand, exponent),
            _ => self.f64_from_parts(positive, significand, exponent),
        }
    }

    fn parse_exponent_overflow(
        &mut self,
        positive: bool,
        zero_significand: bool,
        positive_exp: bool,
    ) -> Result<f64> {
        if !zero_significand && positive_exp {
            return Err(self.error(OUT_OF_RANGE));
        }
        while let b'0'..=b'9' = self.peek_or_null() {
            self.eat_char();
        }
        Ok(if positive { 0.0 } else { -0.0 })
    }
}

/// serde_json's `POW10`: the correctly rounded `1e0 ..= 1e308`.
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
