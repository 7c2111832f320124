use super::*;

const PNG: Encoding = Encoding {
    format: Format::Png,
    quality: 80,
};

fn capture(w: u32, h: u32) -> Capture {
    Capture::from_image(RgbaImage::from_pixel(w, h, image::Rgba([10, 20, 30, 255])))
}

#[test]
fn lux_resizes_to_1260x700_with_spec_scale_factors() {
    let body = screenshot_body(capture(1280, 720), Some(Optimize::Lux), PNG).unwrap();
    let lux = &body["lux_optimized"];
    assert_eq!(
        (lux["width"].as_u64(), lux["height"].as_u64()),
        (Some(1260), Some(700))
    );
    assert_eq!(
        (lux["scale_x"].as_f64(), lux["scale_y"].as_f64()),
        (Some(1.016), Some(1.029))
    );
    assert!(body.get("original").is_none());
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(lux["image_base64"].as_str().unwrap())
        .unwrap();
    assert_eq!(png_size(&bytes), Some(LUX));
}

#[test]
fn both_and_null_return_the_original() {
    let body = screenshot_body(capture(1920, 1080), Some(Optimize::Both), PNG).unwrap();
    assert_eq!(body["original"]["width"], 1920);
    assert_eq!(body["lux_optimized"]["scale_x"], 1.524);
    assert_eq!(body["gemini_optimized"]["width"], 1440);
    assert_eq!(body["gemini_optimized"]["height"], 810);
    let body = screenshot_body(capture(100, 50), None, PNG).unwrap();
    assert_eq!(body["original"]["height"], 50);
    assert!(body.get("lux_optimized").is_none());
}

#[test]
fn gemini_never_enlarges() {
    assert_eq!(
        fit_within(
            Size {
                width: 1280,
                height: 720
            },
            GEMINI_MAX
        ),
        Size {
            width: 1280,
            height: 720
        }
    );
}

#[test]
fn jpeg_is_smaller_and_a_jpeg() {
    let enc = Encoding {
        format: Format::Jpeg,
        quality: 50,
    };
    let body = screenshot_body(capture(64, 64), None, enc).unwrap();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(body["original"]["image_base64"].as_str().unwrap())
        .unwrap();
    assert_eq!(&bytes[..2], &[0xFF, 0xD8]);
    assert_eq!(body["format"], "jpeg");
}
