use super::*;

#[test]
fn a_token_is_kept_until_renewed_and_only_it_is_accepted() {
    let dir = std::env::temp_dir().join(format!("mcp-pairing-{}", std::process::id()));
    let file = dir.join("pairing");
    let _ = std::fs::remove_dir_all(&dir);
    let a = Pairing::load_or_create(&file, false).unwrap();
    let b = Pairing::load_or_create(&file, false).unwrap();
    assert!(well_formed(&a.token));
    assert_eq!(a.token, b.token, "pairing is done once");
    assert!(a.accepts(&b.token));
    assert!(!a.accepts(&fresh_token()));
    assert!(!a.accepts(""));
    let c = Pairing::load_or_create(&file, true).unwrap();
    assert_ne!(a.token, c.token);
    assert_eq!(a.code(8777), format!("8777-{}", a.token));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "only the user may read it");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
