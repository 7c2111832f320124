//! The pairing secret between `sentience mcp --browser extension` and the
//! user's extension (docs/mcp.md "Pairing"). The server makes it once and
//! keeps it in a file only the user can read, so pairing is done once: the
//! extension keeps it too and reconnects by itself whenever the server runs.
//! The user copies it from the server's terminal into the extension's own
//! page; it never travels through a web page, and the server never sends it
//! (it only compares what the extension sends, in constant time).

use std::path::{Path, PathBuf};

/// Characters of a token (31 letters and digits without look-alikes, 20 of them: about 99 bits).
const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
const TOKEN_CHARS: usize = 20;

#[derive(Clone)]
pub struct Pairing {
    token: String,
    file: Option<PathBuf>,
}

impl std::fmt::Debug for Pairing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pairing").field("file", &self.file).finish()
    }
}

fn fresh_token() -> String {
    // Two v4 UUIDs: 244 random bits from the OS generator.
    let bytes: Vec<u8> = [uuid::Uuid::new_v4(), uuid::Uuid::new_v4()]
        .iter()
        .flat_map(|u| *u.as_bytes())
        .collect();
    bytes
        .iter()
        .take(TOKEN_CHARS)
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect()
}

fn well_formed(token: &str) -> bool {
    token.len() == TOKEN_CHARS && token.bytes().all(|b| ALPHABET.contains(&b))
}

impl Pairing {
    /// The token kept in `file` (made, with mode 0600, when missing or
    /// malformed, or when `renew`).
    pub fn load_or_create(file: &Path, renew: bool) -> std::io::Result<Pairing> {
        if !renew {
            if let Ok(text) = std::fs::read_to_string(file) {
                let token = text.trim().to_string();
                if well_formed(&token) {
                    return Ok(Pairing {
                        token,
                        file: Some(file.to_path_buf()),
                    });
                }
            }
        }
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let token = fresh_token();
        write_private(file, &token)?;
        Ok(Pairing {
            token,
            file: Some(file.to_path_buf()),
        })
    }

    /// A token for this process only (tests).
    pub fn ephemeral() -> Pairing {
        Pairing {
            token: fresh_token(),
            file: None,
        }
    }

    /// What the user pastes into the extension: the port and the token.
    pub fn code(&self, port: u16) -> String {
        format!("{port}-{}", self.token)
    }

    /// Whether `candidate` is the token (constant time in its content).
    pub fn accepts(&self, candidate: &str) -> bool {
        let (a, b) = (self.token.as_bytes(), candidate.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }
}

#[cfg(unix)]
fn write_private(file: &Path, token: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(file)?;
    f.write_all(token.as_bytes())
}

#[cfg(not(unix))]
fn write_private(file: &Path, token: &str) -> std::io::Result<()> {
    std::fs::write(file, token)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
