use super::*;

#[test]
fn root_agrees_with_libm() {
    for i in 1..=4000 {
        let x = f64::from(i) / 997.0;
        let cbrt = root(x, 3);
        assert!(
            (cbrt - x.cbrt()).abs() <= 2.0 * f64::EPSILON * x.cbrt(),
            "cbrt {x}"
        );
        let fifth = root(x, 5);
        assert!(
            (fifth - x.powf(0.2)).abs() <= 2.0 * f64::EPSILON * fifth,
            "fifth {x}"
        );
    }
    for c in 0..=255u8 {
        let v = (c as f64 / 255.0 + 0.055) / 1.055;
        let want = if c as f64 / 255.0 <= 0.04045 {
            c as f64 / 255.0 / 12.92
        } else {
            v.powf(2.4)
        };
        assert!((linear(c) - want).abs() <= 8.0 * f64::EPSILON, "linear {c}");
    }
    assert_eq!(root(0.0, 3), 0.0);
    assert_eq!(root(f64::NAN, 3), 0.0);
}
use crate::test_dom::{rgb, rgba};

fn name(hex: u32) -> &'static str {
    color_name(rgb((hex >> 16) as u8, (hex >> 8) as u8, hex as u8)).unwrap()
}

#[test]
fn palette_has_32_distinct_names() {
    let mut names: Vec<_> = PALETTE.iter().map(|p| p.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), 32);
    for p in PALETTE {
        let [r, g, b] = p.rgb;
        assert_eq!(color_name(rgb(r, g, b)), Some(p.name));
        let lab = srgb_to_lab(p.rgb);
        assert!(delta_e(lab, p.lab) < 0.001, "{}: {lab:?}", p.name);
    }
}

#[test]
fn lab_of_known_colours() {
    let w = srgb_to_lab([255, 255, 255]);
    assert!((w.l - 100.0).abs() < 0.01 && w.a.abs() < 0.01 && w.b.abs() < 0.01);
    let r = srgb_to_lab([255, 0, 0]);
    assert!((r.l - 53.24).abs() < 0.05 && (r.a - 80.09).abs() < 0.1 && (r.b - 67.20).abs() < 0.1);
}

#[test]
fn ui_colours_get_everyday_names() {
    for hex in [
        0x0d6efd, 0x007bff, 0x1a73e8, 0x1877f2, 0x0000ff, 0x0064ff, 0x2563eb,
    ] {
        assert_eq!(name(hex), "blue", "{hex:06x}");
    }
    for hex in [0xff0000, 0xdc3545, 0xef4444, 0xd93025] {
        assert_eq!(name(hex), "red", "{hex:06x}");
    }
    for hex in [0x28a745, 0x198754, 0x008000, 0x22c55e] {
        assert_eq!(name(hex), "green", "{hex:06x}");
    }
    assert_eq!(name(0xffffff), "white");
    assert_eq!(name(0xf8f9fa), "white");
    assert_eq!(name(0x000000), "black");
    assert_eq!(name(0x212529), "black");
    assert_eq!(name(0x6c757d), "gray");
    assert_eq!(name(0xff9900), "orange");
    assert_eq!(name(0xffd700), "gold");
    assert_eq!(name(0x000080), "navy");
}

#[test]
fn cache_agrees_with_direct_naming() {
    let mut cache = ColorCache::new();
    for i in 0..200u32 {
        let c = rgba(
            (i * 37) as u8,
            (i * 11) as u8,
            (i * 101 % 256) as u8,
            (i % 256) as u8,
        );
        assert_eq!(cache.name(c), color_name(c));
        assert_eq!(cache.name(c), color_name(c));
    }
    assert!(cache.entries.len() <= ColorCache::CAPACITY);
}

#[test]
fn transparent_and_translucent() {
    assert_eq!(color_name(rgba(0, 0, 255, 25)), None);
    assert_eq!(color_name(rgba(0, 0, 0, 0)), None);
    // Half-transparent black over white reads as gray.
    assert_eq!(color_name(rgba(0, 0, 0, 128)), Some("gray"));
}
