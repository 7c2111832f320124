use super::display;

fn check(v: f64) {
    assert_eq!(display(v), format!("{v}"), "bits {:#x}", v.to_bits());
}

#[test]
fn special_and_edge_values() {
    for v in [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.1,
        1.5,
        2.5,
        123456789.125,
        1e-7,
        1e21,
        1e22,
        1e23,
        1e300,
        1e-300,
        5e-324,
        -5e-324,
        f64::MIN_POSITIVE,
        f64::MAX,
        f64::MIN,
        f64::EPSILON,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        0.30000000000000004,
        9007199254740993.0,
        1.0000001,
        4294967295.0,
    ] {
        check(v);
    }
    for e in -330..=310 {
        check(10f64.powi(e));
        check(3.0 * 10f64.powi(e));
    }
    for i in 0..2000 {
        check(f64::from(i) / 8.0);
        check(f64::from(i) * 0.1);
    }
}

#[test]
fn random_bit_patterns() {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..COUNT {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        check(f64::from_bits(x));
        // Subnormals and values near integers too.
        check(f64::from_bits(x >> 12));
        check((x >> 40) as f64 / 1024.0);
    }
}

/// 17-digit values that sit exactly between two shortest candidates.
#[test]
fn exact_ties_round_up_like_rust() {
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..COUNT {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let m = (1u64 << 52) | (x & ((1 << 52) - 1));
        let e = (x >> 58) as i32 - 40;
        check(m as f64 * 2f64.powi(e));
    }
}

const COUNT: usize = 40_000;
