//! API keys: `Authorization: Bearer <key>`, compared without an early exit so
//! timing does not leak a key. A key is known elsewhere (rate limits,
//! quotas, the run store) only by its id, a short hash that cannot be
//! turned back into the key.

use sha2::{Digest, Sha256};

pub(crate) struct Keys(Vec<(Vec<u8>, String)>);

/// `key:` and the first 12 hex digits of the key's SHA-256.
pub fn key_id(key: &str) -> String {
    let digest = Sha256::digest(key.as_bytes());
    let mut id = String::from("key:");
    for b in &digest[..6] {
        id.push_str(&format!("{b:02x}"));
    }
    id
}

fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl Keys {
    pub(crate) fn new(keys: &[String]) -> Keys {
        Keys(
            keys.iter()
                .map(|k| k.trim())
                .filter(|k| !k.is_empty())
                .map(|k| (k.as_bytes().to_vec(), key_id(k)))
                .collect(),
        )
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The id of the key `given` is, checking every key (no early exit).
    pub(crate) fn find(&self, given: &str) -> Option<&str> {
        let given = given.trim().as_bytes();
        let mut found = None;
        for (key, id) in &self.0 {
            if same(key, given) {
                found = Some(id.as_str());
            }
        }
        found
    }
}
