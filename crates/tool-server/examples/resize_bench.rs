//! Times the 1920×1080 → 1260×700 resize + PNG encode of a Lux screenshot
//! (docs/tools.md "Benchmark"; target ≤ 15 ms). A UI-like frame: flat
//! panels, text-like strokes and a photo-like gradient, or a PNG given as
//! the first argument (e.g. a real desktop capture, or a browser capture:
//! its PNG decode is timed too, as a browser `lux` screenshot pays it).
//! `cargo run --release -p sentience-tool-server --example resize_bench [PNG]`
#![allow(clippy::unwrap_used)]

use image::{Rgba, RgbaImage};
use sentience_tool_server::geometry::LUX;
use sentience_tool_server::imaging::{encode, resize, Encoding, Format};
use std::time::Instant;

fn ui_like() -> RgbaImage {
    RgbaImage::from_fn(1920, 1080, |x, y| {
        if y < 80 {
            Rgba([240, 240, 240, 255])
        } else if x < 300 {
            Rgba([32, 33, 36, 255])
        } else if (y / 18) % 3 == 0 && (x * 7 + y * 13) % 11 < 4 && x < 1500 {
            Rgba([20, 20, 20, 255])
        } else if x > 1500 && y > 600 {
            Rgba([(x % 256) as u8, (y % 256) as u8, ((x + y) % 256) as u8, 255])
        } else {
            Rgba([255, 255, 255, 255])
        }
    })
}

fn main() {
    let img = match std::env::args().nth(1) {
        Some(path) => {
            let png = std::fs::read(path).unwrap();
            let mut ds = Vec::new();
            for _ in 0..40 {
                let t = Instant::now();
                let img = image::load_from_memory_with_format(&png, image::ImageFormat::Png)
                    .unwrap()
                    .into_rgba8();
                ds.push(t.elapsed().as_secs_f64() * 1000.0);
                std::hint::black_box(img);
            }
            ds.sort_by(f64::total_cmp);
            println!("PNG decode p50 {:.1} ms", ds[ds.len() / 2]);
            image::load_from_memory(&png).unwrap().to_rgba8()
        }
        None => ui_like(),
    };
    let enc = Encoding {
        format: Format::Png,
        quality: 80,
    };
    let mut times = Vec::new();
    let mut bytes = 0;
    let (mut rs, mut es) = (Vec::new(), Vec::new());
    for _ in 0..40 {
        let t = Instant::now();
        let small = resize(&img, LUX);
        let r = t.elapsed().as_secs_f64() * 1000.0;
        bytes = encode(&small, enc).unwrap().len();
        let total = t.elapsed().as_secs_f64() * 1000.0;
        times.push(total);
        rs.push(r);
        es.push(total - r);
    }
    rs.sort_by(f64::total_cmp);
    es.sort_by(f64::total_cmp);
    println!(
        "resize p50 {:.1} ms, encode p50 {:.1} ms",
        rs[rs.len() / 2],
        es[es.len() / 2]
    );
    times.sort_by(f64::total_cmp);
    let p = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "{}x{} -> 1260x700 resize + PNG encode: p50 {:.1} ms, p95 {:.1} ms ({} KB)",
        img.width(),
        img.height(),
        p(0.5),
        p(0.95),
        bytes / 1024
    );
}
