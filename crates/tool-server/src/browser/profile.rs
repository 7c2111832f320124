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
mod tests;
