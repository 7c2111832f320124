use super::*;

#[test]
fn a_lock_held_by_a_live_process_is_reported() {
    let dir = std::env::temp_dir().join(format!("tool-server-lock-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lock = dir.join("SingletonLock");
    let _ = std::fs::remove_file(&lock);
    assert!(ProfileLock::ensure_free(&dir).is_ok());
    std::os::unix::fs::symlink(format!("host-{}", std::process::id()), &lock).unwrap();
    assert_eq!(ProfileLock::holder(&dir), Some(std::process::id()));
    assert!(ProfileLock::ensure_free(&dir).is_err());
    // A stale lock (a pid that no longer runs) does not block.
    std::fs::remove_file(&lock).unwrap();
    std::os::unix::fs::symlink("host-999999999", &lock).unwrap();
    assert!(ProfileLock::ensure_free(&dir).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}
