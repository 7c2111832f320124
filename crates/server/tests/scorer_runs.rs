//! Whole runs with the built-in System 2 scorer policy over HTTP: login,
//! search, contact form, careful-mode gate, loop reflection.

mod common;

use common::*;
use serde_json::{json, Value};

fn tool(r: &Value) -> (String, Value) {
    assert_eq!(r["action"], "execute_tool", "{r}");
    (
        r["tool"]["name"].as_str().unwrap_or("").to_string(),
        r["tool"]["parameters"].clone(),
    )
}

#[tokio::test]
async fn login_run_with_the_builtin_scorer_finishes() {
    let srv = spawn().await;
    let id = srv
        .start("Log in as \"alice\" with password \"s3cret\"", "autonomous")
        .await;
    assert_eq!(
        tool(&srv.step(&id, Value::Null, Value::Null).await).0,
        "observe"
    );
    let r = srv.step(&id, login_page(), Value::Null).await;
    assert_eq!(
        tool(&r),
        ("type".into(), json!({"id": "agent-1", "text": "alice"}))
    );
    let r = srv.step(&id, login_page(), ok()).await;
    assert_eq!(
        tool(&r),
        ("type".into(), json!({"id": "agent-2", "text": "s3cret"}))
    );
    let r = srv.step(&id, login_page(), ok()).await;
    assert_eq!(tool(&r), ("click".into(), json!({"id": "agent-3"})));
    let home = page(
        "http://127.0.0.1:9/home.html",
        "Welcome, alice! You are logged in.",
        json!([{"id": "agent-1", "tag": "a", "text": "Log out"}]),
    );
    let r = srv.step(&id, home, ok()).await;
    assert_eq!(r["action"], "finish", "{r}");
    assert!(
        r["result"]
            .as_str()
            .is_some_and(|s| s.contains("Welcome, alice")),
        "{r}"
    );
    assert_eq!(
        r["state"],
        json!({"status": "completed", "currentStep": 5, "maxSteps": 150})
    );
    let st = srv.state(&id).await;
    let actions: Vec<&str> = st["history"]
        .as_array()
        .expect("history")
        .iter()
        .filter_map(|h| h["action"].as_str())
        .collect();
    assert_eq!(actions, ["observe", "type", "type", "click", "finish"]);
    assert_eq!(st["history"][1]["observation"], "Done");
}

#[tokio::test]
async fn login_run_with_specs_001_snapshots_uses_numeric_ids() {
    let srv = spawn().await;
    let id = srv
        .start("Log in as \"alice\" with password \"s3cret\"", "autonomous")
        .await;
    let r = srv.step(&id, login_page_001(), Value::Null).await;
    assert_eq!(tool(&r), ("type".into(), json!({"id": 7, "text": "alice"})));
    let r = srv.step(&id, login_page_001(), ok()).await;
    assert_eq!(
        tool(&r),
        ("type".into(), json!({"id": 8, "text": "s3cret"}))
    );
    let r = srv.step(&id, login_page_001(), ok()).await;
    assert_eq!(tool(&r), ("click".into(), json!({"id": 9})));
    let done = json!({"status": "success", "url": "http://127.0.0.1:9/home", "elements": [
        {"id": 1, "role": "generic", "text": "Logged in as alice", "importance": 10, "bbox": {"x":0,"y":0,"width":100,"height":20},
         "visual_cues": {"is_primary": false, "background_color_name": null, "is_clickable": false}}]});
    assert_eq!(srv.step(&id, done, ok()).await["action"], "finish");
}

#[tokio::test]
async fn search_run_types_submits_and_finishes_on_results() {
    let srv = spawn().await;
    let id = srv.start("Search for \"rust\"", "autonomous").await;
    let home = page(
        "http://127.0.0.1:9/",
        "My site",
        json!([
        {"id": "s", "tag": "input", "type": "search", "placeholder": "Search…", "name": "q"},
        {"id": "about", "tag": "a", "text": "About"}]),
    );
    assert_eq!(
        tool(&srv.step(&id, home.clone(), Value::Null).await),
        ("type".into(), json!({"id": "s", "text": "rust"}))
    );
    // No search button: press Enter in the field.
    assert_eq!(
        tool(&srv.step(&id, home, ok()).await),
        ("press".into(), json!({"key": "Enter", "id": "s"}))
    );
    let results = page(
        "http://127.0.0.1:9/search?q=rust",
        "Results: The Rust Programming Language",
        json!([]),
    );
    let r = srv.step(&id, results, ok()).await;
    assert_eq!(r["action"], "finish", "{r}");
    assert!(r["result"].as_str().is_some_and(|s| s.contains("rust")));
}

#[tokio::test]
async fn contact_form_run_fills_name_and_email_then_submits() {
    let srv = spawn().await;
    let id = srv
        .start(
            "Fill the contact form with name \"Bob\", email \"bob@example.com\" and submit it",
            "autonomous",
        )
        .await;
    let form = page(
        "http://127.0.0.1:9/contact.html",
        "Contact us",
        json!([
        {"id": "e", "tag": "input", "type": "email", "placeholder": "Your email"},
        {"id": "n", "tag": "input", "type": "text", "placeholder": "Full name"},
        {"id": "m", "tag": "textarea", "placeholder": "Message"},
        {"id": "b", "tag": "button", "text": "Submit"}]),
    );
    assert_eq!(
        tool(&srv.step(&id, form.clone(), Value::Null).await).1,
        json!({"id": "n", "text": "Bob"})
    );
    assert_eq!(
        tool(&srv.step(&id, form.clone(), ok()).await).1,
        json!({"id": "e", "text": "bob@example.com"})
    );
    assert_eq!(
        tool(&srv.step(&id, form, ok()).await),
        ("click".into(), json!({"id": "b"}))
    );
    let thanks = page(
        "http://127.0.0.1:9/contact.html",
        "Thank you! Your message has been sent.",
        json!([]),
    );
    assert_eq!(srv.step(&id, thanks, ok()).await["action"], "finish");
}

fn checkout() -> Value {
    page(
        "http://127.0.0.1:9/checkout.html",
        "Checkout. Total $20",
        json!([
        {"id": "back", "tag": "a", "text": "Back to cart"},
        {"id": "pay", "tag": "button", "text": "Pay Now"}]),
    )
}

#[tokio::test]
async fn careful_mode_asks_before_pay_now_and_approval_releases_exactly_that_click() {
    let srv = spawn().await;
    let id = srv
        .start("Go to http://127.0.0.1:9/checkout.html and pay", "careful")
        .await;
    let start = page("http://127.0.0.1:9/", "Shop", json!([]));
    let r = srv.step(&id, start, Value::Null).await;
    assert_eq!(
        tool(&r),
        (
            "navigate".into(),
            json!({"url": "http://127.0.0.1:9/checkout.html"})
        )
    );
    let r = srv.step(&id, checkout(), ok()).await;
    assert_eq!(
        r,
        json!({"action": "ask_user", "question": "⚠️ Security check: Attempting to click 'Pay Now'. Proceed?",
        "state": {"status": "waiting_user", "currentStep": 2, "maxSteps": 150}})
    );
    // A /step while waiting repeats the question (e.g. after a service-worker restart).
    assert_eq!(
        srv.step(&id, checkout(), Value::Null).await["action"],
        "ask_user"
    );
    let r = srv.answer(&id, true).await;
    assert_eq!(
        r,
        json!({"action": "execute_tool", "tool": {"name": "click", "parameters": {"id": "pay"}},
        "state": {"status": "running", "currentStep": 3, "maxSteps": 150}})
    );
    // The approval covered one action: the next payment click asks again.
    let confirm = page(
        "http://127.0.0.1:9/checkout.html",
        "Checkout. Total $20. Confirm your payment",
        json!([
        {"id": "back", "tag": "a", "text": "Back to cart"},
        {"id": "pay2", "tag": "button", "text": "Confirm and pay"}]),
    );
    let again = srv.step(&id, confirm, ok()).await;
    assert_eq!(again["action"], "ask_user", "{again}");
    srv.answer(&id, true).await;
    let paid = page(
        "http://127.0.0.1:9/done.html",
        "Payment successful. Order confirmed.",
        json!([]),
    );
    let r = srv.step(&id, paid, ok()).await;
    assert_eq!(r["action"], "finish", "{r}");
}

#[tokio::test]
async fn careful_mode_refusal_cancels_the_run() {
    let srv = spawn().await;
    let id = srv.start("Delete my account", "careful").await;
    let settings = page(
        "http://127.0.0.1:9/settings",
        "Account settings",
        json!([
        {"id": "d", "tag": "button", "text": "Delete account"}, {"id": "h", "tag": "a", "text": "Help"}]),
    );
    let r = srv.step(&id, settings, Value::Null).await;
    assert_eq!(
        r["question"],
        "⚠️ Security check: Attempting to click 'Delete account'. Proceed?"
    );
    let r = srv.answer(&id, false).await;
    assert_eq!(r["action"], "error");
    assert_eq!(r["state"]["status"], "cancelled");
    assert_eq!(srv.state(&id).await["status"], "cancelled");
}

#[tokio::test]
async fn autonomous_mode_does_not_ask_before_paying() {
    let srv = spawn().await;
    let id = srv
        .start(
            "Go to http://127.0.0.1:9/checkout.html and pay",
            "autonomous",
        )
        .await;
    let r = srv.step(&id, checkout(), Value::Null).await;
    assert_eq!(tool(&r), ("click".into(), json!({"id": "pay"})));
}

#[tokio::test]
async fn a_click_that_changes_nothing_is_not_repeated_and_the_question_says_so() {
    let srv = spawn().await;
    let id = srv.start("Open the \"Details\" page", "autonomous").await;
    let p = page(
        "http://127.0.0.1:9/list",
        "Items",
        json!([
        {"id": "d", "tag": "a", "text": "Details", "bbox": {"x": 10, "y": 10, "width": 80, "height": 20}},
        {"id": "o", "tag": "a", "text": "Other details", "bbox": {"x": 10, "y": 300, "width": 80, "height": 20}}]),
    );
    assert_eq!(
        tool(&srv.step(&id, p.clone(), Value::Null).await),
        ("click".into(), json!({"id": "d"}))
    );
    // The click succeeded but the page is the same: no second click, no
    // other link taken in its place; the user is asked, told what was tried.
    let r = srv.step(&id, p.clone(), ok()).await;
    assert_eq!(r["action"], "ask_user", "{r}");
    let q = r["question"].as_str().unwrap_or("");
    assert!(q.contains("clicked \"Details\" (nothing changed)"), "{q}");
}
