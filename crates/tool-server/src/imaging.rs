//! Screenshot images: resizing for a vision model and encoding
//! (docs/tools.md "Screenshots"; docs/contracts/tools.md §5).
//! Scale factors are computed from the images actually returned
//! (original ÷ optimized), x and y apart.

use crate::error::{ToolError, ToolResult};
use crate::geometry::{scale, scale3, Size, LUX};
use base64::Engine;
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{imageops, ExtendedColorType, ImageEncoder, RgbaImage};
use serde::Deserialize;
use serde_json::{json, Map, Value};

/// Gemini computer-use models are documented to work best on 1440×900
/// screens and answer coordinates on a 0–999 grid normalised to the image,
/// so any aspect works: the image keeps its aspect and is only shrunk to fit
/// within 1440×900 (never enlarged; a 1280×720 viewport is sent as is).
pub const GEMINI_MAX: Size = Size {
    width: 1440,
    height: 900,
};
pub const GEMINI_GRID: u32 = 1000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Optimize {
    Lux,
    Gemini,
    Both,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    #[default]
    Png,
    Jpeg,
}

#[derive(Debug, Clone, Copy)]
pub struct Encoding {
    pub format: Format,
    /// JPEG quality 1–100.
    pub quality: u8,
}

/// A captured frame: the decoded pixels, and the PNG the backend produced
/// when it had one (sent as is when no resizing or re-encoding is asked).
pub struct Capture {
    pub png: Option<Vec<u8>>,
    pub image: Option<RgbaImage>,
    pub size: Size,
}

impl Capture {
    pub fn from_png(png: Vec<u8>) -> ToolResult<Capture> {
        let size = png_size(&png)
            .ok_or_else(|| ToolError::Backend("the browser sent an invalid PNG".into()))?;
        Ok(Capture {
            png: Some(png),
            image: None,
            size,
        })
    }

    pub fn from_image(image: RgbaImage) -> Capture {
        let size = Size {
            width: image.width(),
            height: image.height(),
        };
        Capture {
            png: None,
            image: Some(image),
            size,
        }
    }

    pub fn pixels(&mut self) -> ToolResult<&RgbaImage> {
        if self.image.is_none() {
            let png = self.png.as_deref().unwrap_or_default();
            let img = image::load_from_memory_with_format(png, image::ImageFormat::Png)
                .map_err(|e| ToolError::backend("decoding the screenshot", e))?
                // Moved, not copied, when the PNG is RGBA already.
                .into_rgba8();
            self.image = Some(img);
        }
        self.image
            .as_ref()
            .ok_or_else(|| ToolError::Backend("no image".into()))
    }

    /// The image at `size`, resized when needed (CSS-pixel normalisation of
    /// a HiDPI capture goes through here too).
    pub fn resized_to(&mut self, size: Size) -> ToolResult<Capture> {
        let img = self.pixels()?;
        Ok(Capture::from_image(resize(img, size)))
    }

    fn encoded(&mut self, enc: Encoding) -> ToolResult<Vec<u8>> {
        if enc.format == Format::Png {
            if let Some(png) = &self.png {
                return Ok(png.clone());
            }
        }
        let img = self.pixels()?;
        encode(img, enc)
    }
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(png: &[u8]) -> Option<Size> {
    if png.get(..8)? != b"\x89PNG\r\n\x1a\n" {
        return None;
    }
    let w = u32::from_be_bytes(png.get(16..20)?.try_into().ok()?);
    let h = u32::from_be_bytes(png.get(20..24)?.try_into().ok()?);
    Some(Size {
        width: w,
        height: h,
    })
}

/// Bilinear filtering (sharp enough for UI text at these ratios) with
/// fast_image_resize's SIMD kernels: ~10× the `image` crate's resize, which
/// alone took ~50 ms for 1920×1080 → 1260×700 here (docs/tools.md
/// "Benchmark": the budget is 15 ms for resize + encode).
pub fn resize(img: &RgbaImage, size: Size) -> RgbaImage {
    if img.width() == size.width && img.height() == size.height {
        return img.clone();
    }
    let mut out = RgbaImage::new(size.width, size.height);
    // Screenshots are opaque: skip alpha premultiplication.
    let options = fast_image_resize::ResizeOptions::new()
        .resize_alg(fast_image_resize::ResizeAlg::Convolution(
            fast_image_resize::FilterType::Bilinear,
        ))
        .use_alpha(false);
    match fast_image_resize::Resizer::new().resize(img, &mut out, &options) {
        Ok(()) => out,
        // Cannot happen for two RGBA8 buffers; the portable path stays.
        Err(_) => imageops::resize(img, size.width, size.height, imageops::FilterType::Triangle),
    }
}

pub fn encode(img: &RgbaImage, enc: Encoding) -> ToolResult<Vec<u8>> {
    let mut out = Vec::with_capacity(img.as_raw().len() / 4);
    match enc.format {
        Format::Png => {
            PngEncoder::new_with_quality(&mut out, CompressionType::Fast, FilterType::Sub)
                .write_image(
                    img.as_raw(),
                    img.width(),
                    img.height(),
                    ExtendedColorType::Rgba8,
                )
                .map_err(|e| ToolError::backend("encoding PNG", e))?
        }
        Format::Jpeg => {
            let rgb = image::DynamicImage::ImageRgba8(img.clone()).to_rgb8();
            JpegEncoder::new_with_quality(&mut out, enc.quality.clamp(1, 100))
                .write_image(
                    rgb.as_raw(),
                    rgb.width(),
                    rgb.height(),
                    ExtendedColorType::Rgb8,
                )
                .map_err(|e| ToolError::backend("encoding JPEG", e))?
        }
    }
    Ok(out)
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The largest size with `size`'s aspect that fits in `max` (never larger).
pub fn fit_within(size: Size, max: Size) -> Size {
    let r = (f64::from(max.width) / f64::from(size.width))
        .min(f64::from(max.height) / f64::from(size.height))
        .min(1.0);
    Size {
        width: ((f64::from(size.width) * r).round() as u32).max(1),
        height: ((f64::from(size.height) * r).round() as u32).max(1),
    }
}

fn optimized_entry(
    original: Size,
    mut img: Capture,
    enc: Encoding,
) -> ToolResult<Map<String, Value>> {
    let (sx, sy) = scale(img.size, original);
    let bytes = img.encoded(enc)?;
    let mut m = Map::new();
    m.insert("image_base64".into(), b64(&bytes).into());
    m.insert("width".into(), img.size.width.into());
    m.insert("height".into(), img.size.height.into());
    m.insert("original_width".into(), original.width.into());
    m.insert("original_height".into(), original.height.into());
    m.insert("scale_x".into(), scale3(sx).into());
    m.insert("scale_y".into(), scale3(sy).into());
    Ok(m)
}

/// The body of a successful /screenshot (docs/contracts/tools.md §5): `original` unless only
/// an optimized image was asked for, `lux_optimized` for `lux`/`both`,
/// `gemini_optimized` for `gemini`/`both` (`both` is docs/contracts/tools.md §17.3's "ask both
/// Lux and Gemini" provider choice).
pub fn screenshot_body(
    mut cap: Capture,
    optimize: Option<Optimize>,
    enc: Encoding,
) -> ToolResult<Value> {
    let original = cap.size;
    let mut body = Map::new();
    body.insert("success".into(), true.into());
    body.insert(
        "format".into(),
        match enc.format {
            Format::Png => "png",
            Format::Jpeg => "jpeg",
        }
        .into(),
    );
    if matches!(optimize, None | Some(Optimize::Both)) {
        let bytes = cap.encoded(enc)?;
        body.insert(
            "original".into(),
            json!({"image_base64": b64(&bytes), "width": original.width, "height": original.height}),
        );
    }
    if matches!(optimize, Some(Optimize::Lux | Optimize::Both)) {
        let lux = cap.resized_to(LUX)?;
        body.insert(
            "lux_optimized".into(),
            optimized_entry(original, lux, enc)?.into(),
        );
    }
    if matches!(optimize, Some(Optimize::Gemini | Optimize::Both)) {
        let size = fit_within(original, GEMINI_MAX);
        let img = if size == original {
            Capture {
                png: cap.png.clone(),
                image: cap.image.clone(),
                size,
            }
        } else {
            cap.resized_to(size)?
        };
        let mut m = optimized_entry(original, img, enc)?;
        m.insert(
            "coordinate_grid".into(),
            json!({"width": GEMINI_GRID, "height": GEMINI_GRID}),
        );
        body.insert("gemini_optimized".into(), m.into());
    }
    Ok(Value::Object(body))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
