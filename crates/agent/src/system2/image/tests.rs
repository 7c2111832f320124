use super::*;
use image::{ImageFormat, Rgb};
use std::io::Cursor;

fn png(img: &RgbImage) -> String {
    let mut buf = Cursor::new(Vec::new());
    img.write_to(&mut buf, ImageFormat::Png).expect("encode");
    format!(
        "data:image/png;base64,{}",
        STANDARD.encode(buf.into_inner())
    )
}

#[test]
fn contrast_black_on_white_is_high() {
    let mut img = RgbImage::from_pixel(100, 100, Rgb([255, 255, 255]));
    for x in 20..60 {
        for y in 20..40 {
            img.put_pixel(x, y, Rgb([0, 0, 0]));
        }
    }
    let s = Screenshot::from_base64(&png(&img)).expect("decode");
    let c = s.contrast(20.0, 20.0, 40.0, 20.0).expect("on image");
    assert!(c > 15.0, "{c}");
    let flat = s.contrast(70.0, 70.0, 20.0, 20.0).expect("on image");
    assert!(flat < 1.1, "{flat}");
}

#[test]
fn invalid_data_is_rejected_and_changes_detected() {
    assert!(Screenshot::from_base64("not base64!!").is_err());
    assert!(Screenshot::from_base64("aGVsbG8=").is_err()); // valid base64, not an image
    let a = Screenshot::from_base64(&png(&RgbImage::new(50, 50))).expect("a");
    let b =
        Screenshot::from_base64(&png(&RgbImage::from_pixel(50, 50, Rgb([9, 200, 9])))).expect("b");
    assert!(!a.differs_from(&a));
    assert!(a.differs_from(&b));
}
