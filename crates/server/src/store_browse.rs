//! Browse conversations (docs/contracts/browse.md §7 "Sessions"), kept in
//! the same database as runs, through the same writer thread: a server
//! restarted on the same file continues every conversation.

use super::{Store, StoreError};
use rusqlite::{params, OptionalExtension};
use sentience_browse::Conversation;

impl Store {
    /// A conversation and when it was last used, if it is stored.
    pub async fn load_browse(&self, id: &str) -> Result<Option<(Conversation, u64)>, StoreError> {
        let id = id.to_string();
        self.call(move |c| {
            let row: Option<(String, i64)> = c
                .prepare_cached(
                    "SELECT body, updated_at FROM browse_sessions WHERE session_id = ?1",
                )?
                .query_row([&id], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?;
            match row {
                None => Ok(None),
                Some((body, at)) => Ok(Some((serde_json::from_str(&body)?, at.max(0) as u64))),
            }
        })
        .await
    }

    pub async fn save_browse(
        &self,
        id: &str,
        conv: &Conversation,
        now_ms: u64,
    ) -> Result<(), StoreError> {
        let body = serde_json::to_string(conv)?;
        let id = id.to_string();
        self.call(move |c| {
            c.prepare_cached(
                "INSERT INTO browse_sessions (session_id, body, updated_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT(session_id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at",
            )?
            .execute(params![id, body, now_ms as i64])?;
            Ok(())
        })
        .await
    }

    pub async fn delete_browse(&self, id: &str) -> Result<(), StoreError> {
        let id = id.to_string();
        self.call(move |c| {
            c.prepare_cached("DELETE FROM browse_sessions WHERE session_id = ?1")?
                .execute([&id])?;
            Ok(())
        })
        .await
    }

    /// Delete conversations idle since before `cutoff_ms`.
    pub async fn expire_browse(&self, cutoff_ms: u64) -> Result<usize, StoreError> {
        self.call(move |c| {
            Ok(
                c.prepare_cached("DELETE FROM browse_sessions WHERE updated_at < ?1")?
                    .execute([cutoff_ms as i64])?,
            )
        })
        .await
    }
}
