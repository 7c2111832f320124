//! Persistent profiles (docs/contracts/tools.md §11, "persistent profile": logins survive a
//! stop and a new start). Chromium allows one browser per profile: a second
//! one hands its command line to the first and exits, which would look like
//! a launch that hangs. So a profile in use is refused up front with a clear
//! error (docs/tools.md "Sessions and profiles").

use crate::error::{ToolError, ToolResult};
use std::path::{Path, PathBuf};

/// Whether a profile directory is held by a running Chromium, read from the
/// `SingletonLock` symlink Chromium keeps there (`hostname-pid`).
pub struct ProfileLock;

impl ProfileLock {
    pub fn holder(dir: &Path) -> Option<u32> {
        let target = std::fs::read_link(dir.join("SingletonLock")).ok()?;
        let pid: u32 = target.to_str()?.rsplit('-').next()?.parse().ok()?;
        let alive = PathBuf::from(format!("/proc/{pid}")).exists();
        alive.then_some(pid)
    }

    pub fn ensure_free(dir: &Path) -> ToolResult<()> {
        match Self::holder(dir) {
            Some(pid) => Err(ToolError::Conflict(format!(
                "Browser profile is already in use by another browser (pid {pid}): {}. Close that browser, stop its session, or start with another \"profile\"",
                dir.display()
            ))),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
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
}
