use super::*;

fn ev(seq: i64) -> StoredEvent {
    StoredEvent {
        seq,
        json: format!("{{\"seq\":{seq}}}"),
    }
}

#[test]
fn the_ring_answers_only_when_it_holds_every_event_after_the_last_sent() {
    let hub = Hub::default();
    // Nobody watches: nothing is kept.
    hub.publish("r", &[ev(1)]);
    assert_eq!(hub.recent_after("r", 0), None);
    let _sub = hub.subscribe("r");
    hub.publish("r", &[ev(2), ev(3)]);
    assert_eq!(hub.recent_after("r", 1), Some(vec![ev(2), ev(3)]));
    assert_eq!(hub.recent_after("r", 3), Some(vec![]));
    // Event 1 was committed before anyone watched: read the store.
    assert_eq!(hub.recent_after("r", 0), None);
    // Another replica committed 4 and 5: this one only heard of them.
    hub.announce("r", 5);
    hub.publish("r", &[ev(6)]);
    assert_eq!(hub.recent_after("r", 3), None);
    assert_eq!(hub.recent_after("r", 5), Some(vec![ev(6)]));
}

#[test]
fn a_run_committed_before_its_first_watcher_is_read_from_the_store() {
    let hub = Hub::default();
    // Events 1 and 2 were committed before anyone watched.
    hub.publish("r", &[ev(1), ev(2)]);
    let _sub = hub.subscribe("r");
    // Not "nothing after 0": the hub does not know the run's last event.
    assert_eq!(hub.recent_after("r", 0), None);
    assert_eq!(hub.recent_after("r", 2), None);
    hub.publish("r", &[ev(3)]);
    assert_eq!(hub.recent_after("r", 2), Some(vec![ev(3)]));
    assert_eq!(hub.recent_after("r", 3), Some(vec![]));
}
