use super::*;

#[test]
fn keysyms_follow_the_x11_encoding() {
    assert_eq!(char_keysym('a'), 0x61);
    assert_eq!(char_keysym('à'), 0xe0);
    assert_eq!(char_keysym('€'), 0x0100_20ac);
    assert_eq!(named_keysym("F5"), Some(0xffc2));
    assert_eq!(named_keysym("F0"), None);
    assert_eq!(named_keysym("Enter"), Some(0xff0d));
}

#[test]
fn altgr_levels_are_used_when_no_plainer_key_types_it() {
    // Keycodes 10.. with 6 columns: a German-like `q` (q Q @), `y`/`z`
    // swapped, Shift and AltGr keys.
    let row = |syms: &[u32]| {
        let mut r = syms.to_vec();
        r.resize(6, 0);
        r
    };
    let keysyms: Vec<u32> = [
        row(&[0x71, 0x51, 0, 0, 0x40]),
        row(&[0x7a, 0x5a]),
        row(&[0x79, 0x59]),
        row(&[SHIFT]),
        row(&[LEVEL3_SHIFT]),
        row(&[0x32, 0x22, 0, 0, 0xb2]),
    ]
    .concat();
    let map = KeyMap::from_columns(10, 6, &keysyms);
    assert_eq!(map.strokes(0x7a), Some(vec![(11, true), (11, false)]));
    assert_eq!(
        map.strokes(0x40),
        Some(vec![(14, true), (10, true), (10, false), (14, false)])
    );
    assert_eq!(
        map.strokes(0x59),
        Some(vec![(13, true), (12, true), (12, false), (13, false)])
    );
    assert_eq!(map.strokes(0xe4), None);
}
