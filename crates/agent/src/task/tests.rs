use super::*;

#[test]
fn login_task() {
    let p = TaskPlan::parse(r#"Log in as "alice" with password "s3cret""#);
    assert_eq!(p.goal, Goal::Login);
    assert_eq!(p.values.len(), 2);
    assert_eq!(p.values[0].kind, FieldKind::Username);
    assert_eq!(p.values[0].value, "alice");
    assert_eq!(p.values[1].kind, FieldKind::Password);
}

#[test]
fn search_and_form_tasks() {
    let s = TaskPlan::parse(r#"Search for "rust""#);
    assert_eq!(s.goal, Goal::Search);
    assert_eq!(s.values[0].kind, FieldKind::Search);
    let f = TaskPlan::parse(
        r#"Fill the contact form with name "Bob", email "bob@example.com" and submit it"#,
    );
    assert_eq!(f.goal, Goal::Submit);
    let kinds: Vec<FieldKind> = f.values.iter().map(|v| v.kind).collect();
    assert_eq!(kinds, vec![FieldKind::Name, FieldKind::Email]);
}

#[test]
fn pay_task_with_url() {
    let p = TaskPlan::parse("Go to http://127.0.0.1:8080/checkout.html and pay");
    assert_eq!(p.goal, Goal::Pay);
    assert_eq!(
        p.url.as_deref(),
        Some("http://127.0.0.1:8080/checkout.html")
    );
    let c = TaskPlan::parse(r#"Click "Pricing""#);
    assert_eq!(c.targets, vec!["Pricing"]);
}
