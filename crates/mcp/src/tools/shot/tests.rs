use super::*;

/// A noisy image compresses badly: the worst case for the cap.
fn noise(w: u32, h: u32) -> RgbaImage {
    let mut state: u32 = 12345;
    RgbaImage::from_fn(w, h, |_, _| {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
        let b = state.to_le_bytes();
        image::Rgba([b[1], b[2], b[3], 255])
    })
}

#[test]
fn every_answer_is_under_its_cap() {
    let img = noise(1280, 720);
    for (kind, cap) in [
        (ImageType::Jpeg, 200_000),
        (ImageType::Png, 200_000),
        (ImageType::Jpeg, 30_000),
    ] {
        let f = fit(&img, kind, cap).unwrap();
        assert!(f.bytes.len() <= cap, "{kind:?} {cap}: {}", f.bytes.len());
        assert!(
            f.size.width < 1280,
            "noise at 1280×720 cannot fit {cap} bytes unshrunk"
        );
    }
    // A small image is left as it is.
    let f = fit(&noise(40, 30), ImageType::Png, 200_000).unwrap();
    assert_eq!((f.size.width, f.size.height), (40, 30));
}
