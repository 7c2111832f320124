use super::Intent;

#[test]
fn debug_print() {
    let tasks = std::fs::read_to_string("/tmp/tasks.txt").unwrap_or_default();
    for t in tasks.lines().filter(|l| !l.trim().is_empty()) {
        println!("{t}\n    => {}", Intent::parse(t).describe());
    }
}
