//! Colour naming for `visual_cues.background_color_name` (docs/contracts/snapshot.md §6.6:
//! "Nearest named color (32-color palette)").
//!
//! docs/contracts/snapshot.md §6.6 fixes the size of the palette but not its entries, so this is
//! ours. Names are lower case, two-word names with a space ("light blue");
//! the basic names agents ask for ("blue", "red", "green", "white",
//! "black", …) are spelled exactly so. Each entry is a representative of its
//! colour family *as web pages use it*: CSS Color 4 named colours where
//! that colour sits in the middle of its family, tuned where the CSS value
//! sits at an edge. Tuned entries (Deviation from CSS named colours):
//! - `blue` #1F4FE0: CSS `blue` (#0000FF) is so far out in Lab that UI
//!   blues (#0D6EFD, #1A73E8, #1877F2) fell to `indigo` / `navy`.
//! - `red` #E5302A, `green` #1E9E3E: UI reds and greens (#DC3545,
//!   #28A745), CSS green (#008000) is a dark green.
//! - `dark gray` #505050: CSS `darkgray` (#A9A9A9) is lighter than `gray`.
//! - `light gray` #E0E0E0, `orange` #FF9A1A, `dark orange` #E06000,
//!   `cyan` #00D0E8, `purple` #8030B0, `violet` #C77DDE, `pink` #F4A0C0,
//!   `brown` #A0522D (CSS sienna): keep their families apart.
//! - `coral` instead of `crimson`: with crimson, most reds were "crimson".
//!
//! Distance: CIE76 ΔE (Euclidean in CIELAB, D65 white), perceptually even
//! enough to pick a nearest name.

use crate::raw::{RawNode, Rgba};

/// One palette entry; `lab` is precomputed from `rgb` (a test checks it),
/// so naming a colour costs one conversion, not 33.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PaletteColor {
    pub name: &'static str,
    pub rgb: [u8; 3],
    pub lab: Lab,
}

const fn entry(name: &'static str, rgb: [u8; 3], l: f64, a: f64, b: f64) -> PaletteColor {
    PaletteColor {
        name,
        rgb,
        lab: Lab { l, a, b },
    }
}

/// The palette.
pub const PALETTE: [PaletteColor; 32] = [
    entry("black", [0, 0, 0], 0.0000, 0.0000, 0.0000),
    entry("white", [255, 255, 255], 100.0000, 0.0000, 0.0000),
    entry("gray", [128, 128, 128], 53.5850, 0.0000, 0.0000),
    entry("silver", [192, 192, 192], 77.7044, 0.0000, 0.0000),
    entry("dark gray", [80, 80, 80], 34.0286, 0.0000, 0.0000),
    entry("light gray", [224, 224, 224], 89.1773, 0.0000, 0.0000),
    entry("red", [229, 48, 42], 50.6223, 67.0462, 48.0085),
    entry("dark red", [139, 0, 0], 28.0898, 50.9997, 41.2908),
    entry("maroon", [128, 0, 0], 25.5355, 48.0451, 38.0573),
    entry("coral", [255, 127, 80], 67.2950, 45.3543, 47.4934),
    entry("pink", [244, 160, 192], 74.9409, 35.4836, -3.4756),
    entry("orange", [255, 154, 26], 72.5293, 29.9179, 73.4167),
    entry("dark orange", [224, 96, 0], 56.3053, 46.4730, 65.3838),
    entry("yellow", [255, 255, 0], 97.1393, -21.5537, 94.4780),
    entry("gold", [255, 215, 0], 86.9306, -1.9237, 87.1320),
    entry("olive", [128, 128, 0], 51.8689, -12.9295, 56.6746),
    entry("lime", [0, 255, 0], 87.7347, -86.1827, 83.1793),
    entry("green", [30, 158, 62], 57.1493, -53.5826, 40.0491),
    entry("dark green", [0, 100, 0], 36.2024, -43.3697, 41.8583),
    entry("teal", [0, 128, 128], 48.2541, -28.8463, -8.4769),
    entry("cyan", [0, 208, 232], 76.6384, -33.8434, -23.8562),
    entry("light blue", [173, 216, 230], 83.8129, -10.8918, -11.4767),
    entry("sky blue", [135, 206, 235], 79.2071, -14.8390, -21.2765),
    entry("blue", [31, 79, 224], 40.0199, 39.1992, -77.4906),
    entry("navy", [0, 0, 128], 12.9720, 47.5023, -64.7022),
    entry("indigo", [75, 0, 130], 20.4694, 51.6856, -53.3126),
    entry("purple", [128, 48, 176], 37.5502, 55.2123, -53.2921),
    entry("violet", [199, 125, 222], 63.4128, 44.6975, -38.0986),
    entry("magenta", [255, 0, 255], 60.3242, 98.2343, -60.8249),
    entry("brown", [160, 82, 45], 43.7992, 29.3223, 35.6384),
    entry("beige", [245, 245, 220], 95.9491, -4.1929, 12.0490),
    entry("tan", [210, 180, 140], 74.9757, 5.0213, 24.4281),
];

/// Below 10 % opacity a background is not what a person sees.
pub const MIN_VISIBLE_ALPHA: u8 = 26; // ceil(0.1 * 255)

/// CIELAB coordinates (L*, a*, b*).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lab {
    pub l: f64,
    pub a: f64,
    pub b: f64,
}

/// IEC 61966-2-1 (sRGB) transfer function, inverted.
fn linear(c: u8) -> f64 {
    let c = c as f64 / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        // v^2.4 = v² · (v^⅕)²
        let v = (c + 0.055) / 1.055;
        let fifth = root(v, 5);
        v * v * fifth * fifth
    }
}

/// CIE 1976 L*a*b* `f(t)`.
fn lab_f(t: f64) -> f64 {
    const D: f64 = 6.0 / 29.0;
    if t > D * D * D {
        root(t, 3)
    } else {
        t / (3.0 * D * D) + 4.0 / 29.0
    }
}

/// `x^(1/n)` for a positive normal `x`, by Newton's method from a
/// power-of-two first guess (quadratic convergence: a handful of steps).
/// Why not `powf`/`cbrt`: libm's `pow`, `cbrt` and the `fma` it needs are
/// 4 KB of the WebAssembly engine's size budget; this is a few hundred
/// bytes, and agrees with them to the last bit or two (the colour tests).
fn root(x: f64, n: i32) -> f64 {
    if x <= 0.0 || !x.is_finite() {
        return 0.0;
    }
    let exponent = ((x.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let mut y = f64::from_bits(((1023 + exponent / n) as u64) << 52);
    let nf = f64::from(n);
    for _ in 0..64 {
        let mut p = 1.0; // y^(n-1)
        for _ in 1..n {
            p *= y;
        }
        let next = y - (y * p - x) / (nf * p);
        if next == y {
            break;
        }
        y = next;
    }
    y
}

/// sRGB → XYZ (IEC 61966-2-1 matrix) → CIELAB with the D65 reference white.
pub fn srgb_to_lab(rgb: [u8; 3]) -> Lab {
    let (r, g, b) = (linear(rgb[0]), linear(rgb[1]), linear(rgb[2]));
    let x = 0.412_456_4 * r + 0.357_576_1 * g + 0.180_437_5 * b;
    let y = 0.212_672_9 * r + 0.715_152_2 * g + 0.072_175_0 * b;
    let z = 0.019_333_9 * r + 0.119_192_0 * g + 0.950_304_1 * b;
    let (fx, fy, fz) = (lab_f(x / 0.950_47), lab_f(y), lab_f(z / 1.088_83));
    Lab {
        l: 116.0 * fy - 16.0,
        a: 500.0 * (fx - fy),
        b: 200.0 * (fy - fz),
    }
}

/// CIE76 colour difference.
pub fn delta_e(p: Lab, q: Lab) -> f64 {
    ((p.l - q.l).powi(2) + (p.a - q.a).powi(2) + (p.b - q.b).powi(2)).sqrt()
}

/// What a translucent colour looks like over white (the usual canvas
/// colour, CSS Backgrounds 3 §2.11.2 leaves it to the UA; every browser
/// paints white).
pub fn over_white(c: Rgba) -> [u8; 3] {
    let a = c.a as f64 / 255.0;
    let mix = |v: u8| (v as f64 * a + 255.0 * (1.0 - a)).round().clamp(0.0, 255.0) as u8;
    [mix(c.r), mix(c.g), mix(c.b)]
}

/// Index in [`PALETTE`] of the nearest entry to an opaque colour.
pub fn nearest_index(rgb: [u8; 3]) -> usize {
    nearest_to_lab(srgb_to_lab(rgb))
}

fn nearest_to_lab(lab: Lab) -> usize {
    let mut best = (0, f64::INFINITY);
    for (i, p) in PALETTE.iter().enumerate() {
        let d = delta_e(lab, p.lab);
        if d < best.1 {
            best = (i, d);
        }
    }
    best.0
}

/// Remembers conversions: a page uses a handful of colours for thousands of
/// elements, and each conversion costs three `powf`s and three `cbrt`s.
/// Bounded, so a page with a million colours costs no memory, only time.
#[derive(Debug, Default)]
pub struct ColorCache {
    /// (sRGB, Lab, nearest palette index), most recent last.
    entries: Vec<([u8; 3], Lab, usize)>,
}

impl ColorCache {
    const CAPACITY: usize = 32;

    pub fn new() -> Self {
        Self::default()
    }

    fn entry(&mut self, rgb: [u8; 3]) -> (Lab, usize) {
        if let Some(&(_, lab, p)) = self.entries.iter().rev().find(|e| e.0 == rgb) {
            return (lab, p);
        }
        let lab = srgb_to_lab(rgb);
        let p = nearest_to_lab(lab);
        if self.entries.len() >= Self::CAPACITY {
            self.entries.remove(0);
        }
        self.entries.push((rgb, lab, p));
        (lab, p)
    }

    pub fn lab(&mut self, rgb: [u8; 3]) -> Lab {
        self.entry(rgb).0
    }

    pub fn nearest_index(&mut self, rgb: [u8; 3]) -> usize {
        self.entry(rgb).1
    }

    /// [`color_name`], cached.
    pub fn name(&mut self, c: Rgba) -> Option<&'static str> {
        if c.a < MIN_VISIBLE_ALPHA {
            return None;
        }
        let p = self.nearest_index(over_white(c));
        PALETTE.get(p).map(|p| p.name)
    }

    /// [`background_color_name`], cached.
    pub fn background_name(&mut self, node: &RawNode) -> Option<&'static str> {
        node.effective_background.and_then(|c| self.name(c))
    }
}

/// The palette name of a colour; `None` when (nearly) transparent.
pub fn color_name(c: Rgba) -> Option<&'static str> {
    if c.a < MIN_VISIBLE_ALPHA {
        return None;
    }
    PALETTE.get(nearest_index(over_white(c))).map(|p| p.name)
}

/// `background_color_name` (docs/contracts/snapshot.md §6.6): the colour a person sees behind the
/// element, i.e. its own background or the first ancestor's that has one.
pub fn background_color_name(node: &RawNode) -> Option<&'static str> {
    node.effective_background.and_then(color_name)
}

#[cfg(test)]
mod tests;
