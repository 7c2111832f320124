use super::*;
use crate::page::ElementId;
use serde_json::json;

fn page(url: &str, els: serde_json::Value) -> Page {
    Page::from_json(&json!({"url": url, "title": "", "visibleText": "", "elements": els}))
        .expect("page")
}

#[test]
fn pay_now_and_delete_account_are_gated() {
    let p = page(
        "http://x/shop",
        json!([{"id":"a","tag":"button","text":"Pay Now"},
               {"id":"b","tag":"button","text":"Delete account"},
               {"id":"c","tag":"a","text":"Pricing"}]),
    );
    let click = |id: &str| Tool::Click {
        id: ElementId::Str(id.into()),
    };
    let hit = check(&click("a"), &p).expect("pay gated");
    assert_eq!(
        hit.question,
        "⚠️ Security check: Attempting to click 'Pay Now'. Proceed?"
    );
    assert!(check(&click("b"), &p).is_some());
    assert!(check(&click("c"), &p).is_none());
}

#[test]
fn card_and_password_typing_is_gated_but_login_click_is_not() {
    let p = page(
        "http://x/login",
        json!([{"id":"u","tag":"input","placeholder":"Username"},
               {"id":"p","tag":"input","type":"password","placeholder":"Password"},
               {"id":"s","tag":"button","text":"Log in"}]),
    );
    let t = |id: &str| Tool::Type {
        id: ElementId::Str(id.into()),
        text: "x".into(),
    };
    assert!(check(&t("u"), &p).is_none());
    assert!(check(&t("p"), &p).is_some());
    assert!(check(
        &Tool::Click {
            id: ElementId::Str("s".into())
        },
        &p
    )
    .is_none());
    let c = page(
        "http://x/checkout.html",
        json!([{"id":"n","tag":"input","name":"cc-number","placeholder":"Card number"},
               {"id":"go","tag":"button","text":"Continue"}]),
    );
    assert!(check(&t("n"), &c).is_some());
    assert!(check(
        &Tool::Click {
            id: ElementId::Str("go".into())
        },
        &c
    )
    .is_some());
}
