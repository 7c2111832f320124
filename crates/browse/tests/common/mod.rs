//! What the conversation tests share.

use sentience_browse::{builtin_step, Answer, Conversation, Endpoint};

/// Runs a conversation on one unchanging page for a client that accepts
/// `accepts` (docs/contracts/browse.md §2), returning each answer until
/// `finish` or `max` answers; every answer must start with its reason
/// (the spec's "Reason should ALWAYS come before all other information").
pub fn answers(task: &str, html: &str, accepts: &[&str], max: usize) -> Vec<Answer> {
    let mut conv = Conversation::new(task, Some("http://localhost/"));
    conv.accepts = accepts.iter().map(|s| s.to_string()).collect();
    let mut out = Vec::new();
    for _ in 0..max {
        let a = builtin_step(&mut conv, html, None);
        assert!(
            a.to_json().starts_with("{\"reason\":\"The user wants to "),
            "{}",
            a.to_json()
        );
        let done = a.endpoint == Endpoint::Finish;
        out.push(a);
        if done {
            break;
        }
    }
    out
}
