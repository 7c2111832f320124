use super::*;

fn target(id: &str) -> Value {
    json!({"targetId": id, "type": "page", "url": format!("http://x/{id}"), "title": id})
}

#[test]
fn ids_are_stable_and_never_reused() {
    let mut reg = TabRegistry::default();
    reg.merge(&[target("b"), target("a")]);
    assert_eq!(
        reg.infos()
            .iter()
            .map(|t| (t.id, t.title.clone()))
            .collect::<Vec<_>>(),
        vec![(0, "a".into()), (1, "b".into())]
    );
    reg.merge(&[target("b")]);
    reg.merge(&[target("c"), target("b")]);
    let ids: Vec<(u64, String)> = reg
        .infos()
        .iter()
        .map(|t| (t.id, t.title.clone()))
        .collect();
    assert_eq!(ids, vec![(1, "b".into()), (2, "c".into())]);
    assert!(reg.infos().iter().any(|t| t.is_current));
}

#[test]
fn service_workers_are_not_tabs() {
    let mut reg = TabRegistry::default();
    reg.merge(&[
        json!({"targetId": "w", "type": "service_worker", "url": "chrome-extension://x/sw.js"}),
        target("a"),
    ]);
    assert_eq!(reg.ids(), vec![0]);
}
