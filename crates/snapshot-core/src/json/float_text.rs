//! `f64`'s `Display` text (`format!("{v}")`) without `core::fmt`'s float
//! formatting (Grisu with a Dragon4 fallback and its bignum: several KB of
//! WebAssembly that only error messages used). The digits come from the
//! shortest round-trip formatter serde_json already carries for the output
//! JSON; only their layout is Rust's: positional, never an exponent, no
//! `.0` on integers, `-0`, `NaN`, `inf`.

/// `format!("{v}")` for an `f64`.
pub fn display(v: f64) -> String {
    if v.is_nan() {
        return "NaN".to_string();
    }
    let mut out = String::new();
    if v.is_sign_negative() {
        out.push('-');
    }
    if v.is_infinite() {
        out.push_str("inf");
        return out;
    }
    if v == 0.0 {
        out.push('0');
        return out;
    }
    // Shortest round-trip digits, e.g. "1.25", "1e-7", "1.5e+300".
    let text = serde_json::to_string(&v.abs()).unwrap_or_default();
    let (mantissa, exp) = text.split_once(['e', 'E']).unwrap_or((&text, "0"));
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut all = int.to_string();
    all.push_str(frac);
    let lead = all.bytes().take_while(|&b| b == b'0').count();
    let mut digits = all
        .get(lead..)
        .unwrap_or_default()
        .trim_end_matches('0')
        .to_string();
    // Where the decimal point falls, counted in `digits`.
    let mut point = int.len() as i64 + parse_exp(exp) - lead as i64;
    // Two shortest candidates can be equally close; Rust takes the upper,
    // serde_json's formatter the even one.
    let last = digits
        .bytes()
        .fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
    let last_exp = point - digits.len() as i64;
    if is_exactly(v.abs(), last * 10 + 5, last_exp - 1) {
        let up = (last + 1).to_string();
        point += up.len() as i64 - digits.len() as i64;
        digits = up.trim_end_matches('0').to_string();
    }
    let len = digits.len() as i64;
    if point <= 0 {
        out.push_str("0.");
        push_zeros(&mut out, -point);
        out.push_str(&digits);
    } else if point >= len {
        out.push_str(&digits);
        push_zeros(&mut out, point - len);
    } else {
        let (a, b) = digits.split_at(point as usize);
        out.push_str(a);
        out.push('.');
        out.push_str(b);
    }
    out
}

/// Whether `v` (finite, > 0) is exactly `n * 10^q`: compares the odd parts
/// and the powers of two of both sides (`v = m * 2^e`, `10^q = 5^q * 2^q`).
fn is_exactly(v: f64, n: u64, q: i64) -> bool {
    let bits = v.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1 << 52) - 1);
    let (m, e) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | 1 << 52, biased - 1075)
    };
    if m == 0 || n == 0 {
        return false;
    }
    let (m_odd, m_twos) = (m >> m.trailing_zeros(), e + i64::from(m.trailing_zeros()));
    let (n_odd, n_twos) = (n >> n.trailing_zeros(), i64::from(n.trailing_zeros()));
    let scaled = |odd: u64, fives: i64| {
        u32::try_from(fives)
            .ok()
            .and_then(|f| 5u128.checked_pow(f))
            .and_then(|p| u128::from(odd).checked_mul(p))
    };
    if q >= 0 {
        scaled(n_odd, q) == Some(u128::from(m_odd)) && m_twos == n_twos + q
    } else {
        scaled(m_odd, -q) == Some(u128::from(n_odd)) && m_twos - q == n_twos
    }
}

/// "+300", "-7", "12" → the number (the formatter never writes junk).
fn parse_exp(exp: &str) -> i64 {
    let (negative, digits) = match exp.as_bytes().first() {
        Some(b'-') => (true, exp.get(1..).unwrap_or_default()),
        Some(b'+') => (false, exp.get(1..).unwrap_or_default()),
        _ => (false, exp),
    };
    let n = digits
        .bytes()
        .fold(0i64, |n, d| n * 10 + i64::from(d.wrapping_sub(b'0')));
    if negative {
        -n
    } else {
        n
    }
}

fn push_zeros(out: &mut String, n: i64) {
    for _ in 0..n {
        out.push('0');
    }
}

#[cfg(test)]
mod tests;
