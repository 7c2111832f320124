use super::*;

fn headless() -> ViewportPlacement {
    ViewportPlacement {
        size: DEFAULT_VIEWPORT,
        left: 0.0,
        top: 0.0,
    }
}

#[test]
fn spec_example_lux_400_200_is_viewport_406_206() {
    let v = headless().to_viewport(Point { x: 400.0, y: 200.0 }, Space::LuxSdk);
    assert_eq!(v.rounded(), serde_json::json!({"x": 406, "y": 206}));
}

#[test]
fn spec_scale_factors_keep_x_and_y_apart() {
    let (sx, sy) = scale(LUX, DEFAULT_VIEWPORT);
    assert_eq!((scale3(sx), scale3(sy)), (1.016, 1.029));
    let (sx, sy) = scale(
        LUX,
        Size {
            width: 1920,
            height: 1080,
        },
    );
    assert_eq!((scale3(sx), scale3(sy)), (1.524, 1.543));
}

#[test]
fn screen_round_trips_through_the_window_offset() {
    let placed = ViewportPlacement {
        size: DEFAULT_VIEWPORT,
        left: 10.0,
        top: 87.0,
    };
    let p = Point { x: 110.0, y: 187.0 };
    let v = placed.to_viewport(p, Space::Screen);
    assert_eq!((v.x, v.y), (100.0, 100.0));
    assert_eq!(placed.from_viewport(v, Space::Screen), p);
}

#[test]
fn bounds_are_half_open() {
    let s = DEFAULT_VIEWPORT;
    assert!(inside(Point { x: 0.0, y: 0.0 }, s));
    assert!(inside(
        Point {
            x: 1279.0,
            y: 719.0
        },
        s
    ));
    assert!(!inside(Point { x: 1280.0, y: 10.0 }, s));
    assert!(!inside(Point { x: -1.0, y: 10.0 }, s));
    assert!(!inside(
        Point {
            x: 1500.0,
            y: 200.0
        },
        s
    ));
}
