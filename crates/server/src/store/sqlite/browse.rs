//! Browse conversations (docs/contracts/browse.md §7 "Sessions"), kept in
//! the same database as runs, through the same writer thread: a server
//! restarted on the same file continues every conversation. Messages of one
//! conversation are serialised by the server's in-process lock (one
//! process per file), so a turn holds nothing here.

use super::writer::Writer;
use crate::store::{BrowseLock, BrowseTurn, StoreError};
use async_trait::async_trait;
use rusqlite::{params, OptionalExtension};

pub(super) async fn turn(writer: &Writer, id: &str) -> Result<BrowseTurn, StoreError> {
    let key = id.to_string();
    let stored = writer
        .call(move |c| {
            let row: Option<(String, i64)> = c
                .prepare_cached(
                    "SELECT body, updated_at FROM browse_sessions WHERE session_id = ?1",
                )?
                .query_row([&key], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?;
            Ok(row.map(|(body, at)| (body, at.max(0) as u64)))
        })
        .await?;
    Ok(BrowseTurn::new(
        stored,
        Box::new(SqliteBrowse {
            writer: writer.clone(),
            id: id.to_string(),
        }),
    ))
}

struct SqliteBrowse {
    writer: Writer,
    id: String,
}

#[async_trait]
impl BrowseLock for SqliteBrowse {
    async fn save(self: Box<Self>, body: String, now_ms: u64) -> Result<(), StoreError> {
        save(&self.writer, self.id, body, now_ms).await
    }

    async fn delete(self: Box<Self>) -> Result<(), StoreError> {
        delete(&self.writer, self.id).await
    }

    async fn release(self: Box<Self>) {}
}

pub(super) async fn save(
    writer: &Writer,
    id: String,
    body: String,
    now_ms: u64,
) -> Result<(), StoreError> {
    writer
        .call(move |c| {
            c.prepare_cached(
                "INSERT INTO browse_sessions (session_id, body, updated_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT(session_id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at",
            )?
            .execute(params![id, body, now_ms as i64])?;
            Ok(())
        })
        .await
}

pub(super) async fn delete(writer: &Writer, id: String) -> Result<(), StoreError> {
    writer
        .call(move |c| {
            c.prepare_cached("DELETE FROM browse_sessions WHERE session_id = ?1")?
                .execute([&id])?;
            Ok(())
        })
        .await
}

pub(super) async fn expire(writer: &Writer, cutoff_ms: u64) -> Result<usize, StoreError> {
    writer
        .call(move |c| {
            Ok(
                c.prepare_cached("DELETE FROM browse_sessions WHERE updated_at < ?1")?
                    .execute([cutoff_ms as i64])?,
            )
        })
        .await
}
