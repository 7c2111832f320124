//! Coordinate spaces (docs/tools.md "Coordinates"; docs/contracts/tools.md §6 "Coordinate
//! Origins"): `lux_sdk` is the 1260×700 image a Lux model sees, `viewport`
//! the page's CSS pixels (= the pixels of a browser screenshot), `screen`
//! the X screen's pixels. x and y scale separately: 1260×700 is not the
//! aspect of 1280×720 or 1920×1080 (docs/contracts/tools.md §5: scale_x 1.016, scale_y 1.029).

use serde::{Deserialize, Serialize};

/// docs/contracts/tools.md §4: `lux_sdk_reference`.
pub const LUX: Size = Size {
    width: 1260,
    height: 700,
};
/// docs/contracts/tools.md §11: "fixed viewport: 1280x720".
pub const DEFAULT_VIEWPORT: Size = Size {
    width: 1280,
    height: 720,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Size {
    pub width: u32,
    pub height: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl Point {
    /// The point as the caller gave it: whole numbers stay integers
    /// (`{"x": 400, "y": 200}` as in docs/contracts/tools.md, not `400.0`).
    pub fn as_given(self) -> serde_json::Value {
        let n = |v: f64| {
            if v.fract() == 0.0 && v.abs() < 1e15 {
                serde_json::Value::from(v as i64)
            } else {
                serde_json::Value::from(v)
            }
        };
        serde_json::json!({"x": n(self.x), "y": n(self.y)})
    }

    /// Rounded to whole pixels, the space input lands in and every
    /// response reports.
    pub fn whole(self) -> Point {
        Point {
            x: self.x.round(),
            y: self.y.round(),
        }
    }

    /// Integer pixel coordinates, as every response reports them.
    pub fn rounded(self) -> serde_json::Value {
        serde_json::json!({"x": self.x.round() as i64, "y": self.y.round() as i64})
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Space {
    LuxSdk,
    Viewport,
    Screen,
}

impl Space {
    pub fn name(self) -> &'static str {
        match self {
            Space::LuxSdk => "lux_sdk",
            Space::Viewport => "viewport",
            Space::Screen => "screen",
        }
    }
}

/// Rounds a scale factor to three decimals, as docs/contracts/tools.md §5 prints them.
pub fn scale3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

/// `target` units per `from` unit on each axis (original ÷ optimized in
/// the terms of docs/contracts/tools.md §5 when `from` is the optimized image).
pub fn scale(from: Size, target: Size) -> (f64, f64) {
    (
        f64::from(target.width) / f64::from(from.width),
        f64::from(target.height) / f64::from(from.height),
    )
}

/// Maps a point of an image of size `from` onto an image of size `to`.
pub fn rescale(p: Point, from: Size, to: Size) -> Point {
    let (sx, sy) = scale(from, to);
    Point {
        x: p.x * sx,
        y: p.y * sy,
    }
}

/// Where the browser's viewport sits on the X screen: its top-left corner
/// in screen pixels (0,0 for a headless browser, which has no window).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewportPlacement {
    pub size: Size,
    pub left: f64,
    pub top: f64,
}

impl ViewportPlacement {
    /// A point in `space` as viewport coordinates. `lux_sdk` maps onto the
    /// viewport (the Lux image of a browser screenshot is the viewport).
    pub fn to_viewport(&self, p: Point, space: Space) -> Point {
        match space {
            Space::Viewport => p,
            Space::LuxSdk => rescale(p, LUX, self.size),
            Space::Screen => Point {
                x: p.x - self.left,
                y: p.y - self.top,
            },
        }
    }

    pub fn from_viewport(&self, p: Point, space: Space) -> Point {
        match space {
            Space::Viewport => p,
            Space::LuxSdk => rescale(p, self.size, LUX),
            Space::Screen => Point {
                x: p.x + self.left,
                y: p.y + self.top,
            },
        }
    }
}

/// A point in `space` as screen coordinates for the desktop scope: there
/// `lux_sdk` maps onto the whole screen (the Lux image of a desktop
/// screenshot), and `viewport` is the same as `screen` (no browser involved).
pub fn desktop_to_screen(p: Point, space: Space, screen: Size) -> Point {
    match space {
        Space::LuxSdk => rescale(p, LUX, screen),
        Space::Viewport | Space::Screen => p,
    }
}

/// Whether a point lies inside `0 ≤ x < width, 0 ≤ y < height`, after the
/// same rounding the input path applies.
pub fn inside(p: Point, size: Size) -> bool {
    let (x, y) = (p.x.round(), p.y.round());
    x >= 0.0 && y >= 0.0 && x < f64::from(size.width) && y < f64::from(size.height)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
