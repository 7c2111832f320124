use super::*;

fn f(role: Role, area: f64) -> Factors {
    Factors {
        role,
        visible_area: area,
        is_primary: false,
        in_viewport: true,
        is_occluded: false,
    }
}

#[test]
fn formula() {
    // 120×40 primary button in view: 500 + 48 + 200.
    let b = Factors {
        is_primary: true,
        ..f(Role::Button, 4800.0)
    };
    assert_eq!(importance(b), 748);
    assert_eq!(importance(f(Role::Textbox, 1e6)), 1200);
    assert_eq!(importance(f(Role::Link, 99.0)), 100);
    assert_eq!(importance(f(Role::Checkbox, 256.0)), 702);
    let off = Factors {
        in_viewport: false,
        ..f(Role::Button, 0.0)
    };
    assert_eq!(importance(off), 0);
    let occluded = Factors {
        is_occluded: true,
        ..f(Role::Textbox, 2000.0)
    };
    assert_eq!(importance(occluded), 220);
}

#[test]
fn clamped_to_contract_range() {
    let worst = Factors {
        in_viewport: false,
        is_occluded: true,
        ..f(Role::Generic, 0.0)
    };
    assert_eq!(importance(worst), MIN_IMPORTANCE);
    assert_eq!(area_score(f64::NAN), 0);
    assert_eq!(area_score(f64::INFINITY), 200);
    assert_eq!(area_score(-5.0), 0);
}
