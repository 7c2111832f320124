//! Screenshot pixels for the System 2 scorer (docs/contracts/system2.md §7): decoding base64
//! (with or without a data-URL prefix), contrast under an element's box, and
//! "did the screen change" between two screenshots.

use base64::engine::general_purpose::{STANDARD, URL_SAFE};
use base64::Engine;
use image::RgbImage;

#[derive(Debug, thiserror::Error)]
pub enum ImageError {
    /// docs/contracts/system2.md §8: answered as 400 {"detail": "Invalid base64 image data"}.
    #[error("Invalid base64 image data")]
    InvalidBase64,
}

/// A decoded screenshot (8-bit RGB).
pub struct Screenshot {
    img: RgbImage,
}

/// Is this screenshot string a URL to fetch rather than inline data?
pub fn is_url(s: &str) -> bool {
    let t = s.trim_start();
    t.starts_with("http://") || t.starts_with("https://")
}

/// Strip an optional `data:image/...;base64,` prefix and whitespace, decode.
pub fn decode_base64(s: &str) -> Result<Vec<u8>, ImageError> {
    let body = match s.find("base64,") {
        Some(i) if s.trim_start().starts_with("data:") => &s[i + "base64,".len()..],
        _ => s,
    };
    let clean: String = body.chars().filter(|c| !c.is_whitespace()).collect();
    STANDARD
        .decode(&clean)
        .or_else(|_| URL_SAFE.decode(&clean))
        .or_else(|_| base64::engine::general_purpose::STANDARD_NO_PAD.decode(&clean))
        .map_err(|_| ImageError::InvalidBase64)
}

impl Screenshot {
    /// Decode PNG or JPEG bytes. Undecodable bytes count as invalid image data.
    pub fn from_bytes(bytes: &[u8]) -> Result<Screenshot, ImageError> {
        let img = image::load_from_memory(bytes).map_err(|_| ImageError::InvalidBase64)?;
        Ok(Screenshot { img: img.to_rgb8() })
    }

    pub fn from_base64(s: &str) -> Result<Screenshot, ImageError> {
        Screenshot::from_bytes(&decode_base64(s)?)
    }

    pub fn width(&self) -> u32 {
        self.img.width()
    }

    pub fn height(&self) -> u32 {
        self.img.height()
    }

    fn luminance(&self, x: u32, y: u32) -> f64 {
        let p = self.img.get_pixel(x, y).0;
        // WCAG 2.x relative luminance.
        let lin = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.03928 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(p[0]) + 0.7152 * lin(p[1]) + 0.0722 * lin(p[2])
    }

    /// Luminances sampled on a grid (at most 48×48 points) inside a rectangle
    /// clipped to the image; empty when the rectangle is outside it.
    fn sample(&self, x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<f64> {
        let (w, h) = (f64::from(self.width()), f64::from(self.height()));
        let (x0, y0) = (x0.max(0.0), y0.max(0.0));
        let (x1, y1) = (x1.min(w), y1.min(h));
        if x1 - x0 < 1.0 || y1 - y0 < 1.0 {
            return Vec::new();
        }
        let nx = ((x1 - x0) as usize).clamp(1, 48);
        let ny = ((y1 - y0) as usize).clamp(1, 48);
        let mut out = Vec::with_capacity(nx * ny);
        for j in 0..ny {
            for i in 0..nx {
                let x = x0 + (i as f64 + 0.5) * (x1 - x0) / nx as f64;
                let y = y0 + (j as f64 + 0.5) * (y1 - y0) / ny as f64;
                out.push(self.luminance(x as u32, y as u32));
            }
        }
        out
    }

    /// WCAG contrast ratio (1..21) measured under a box: the larger of the
    /// contrast inside it (text vs its background, 5th vs 95th percentile
    /// luminance) and the contrast of the box against a 6 px ring around it
    /// (a filled button on the page). None when the box is off the image.
    pub fn contrast(&self, x: f64, y: f64, w: f64, h: f64) -> Option<f64> {
        let mut inside = self.sample(x, y, x + w, y + h);
        if inside.is_empty() {
            return None;
        }
        inside.sort_by(f64::total_cmp);
        let pct = |p: f64| inside[((inside.len() - 1) as f64 * p).round() as usize];
        let ratio = |a: f64, b: f64| (a.max(b) + 0.05) / (a.min(b) + 0.05);
        let within = ratio(pct(0.05), pct(0.95));
        let ring: Vec<f64> = [
            self.sample(x - 6.0, y - 6.0, x + w + 6.0, y),
            self.sample(x - 6.0, y + h, x + w + 6.0, y + h + 6.0),
            self.sample(x - 6.0, y, x, y + h),
            self.sample(x + w, y, x + w + 6.0, y + h),
        ]
        .concat();
        let edge = if ring.is_empty() {
            1.0
        } else {
            let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
            ratio(mean(&inside), mean(&ring))
        };
        Some(within.max(edge))
    }

    /// Did anything visible change? Pixels differing by more than 8 levels in
    /// any channel are counted; a handful (a blinking caret) is not a change.
    pub fn differs_from(&self, other: &Screenshot) -> bool {
        if self.img.dimensions() != other.img.dimensions() {
            return true;
        }
        let changed = self
            .img
            .pixels()
            .zip(other.img.pixels())
            .filter(|(a, b)| a.0.iter().zip(b.0.iter()).any(|(x, y)| x.abs_diff(*y) > 8))
            .count();
        let total = self.img.pixels().len();
        changed > 50.max(total / 2000)
    }
}

#[cfg(test)]
mod tests;
