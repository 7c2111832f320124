//! How a run's JSON is stored in `runs.body`: compressed with block LZ4
//! behind a 4-byte tag, as a BLOB. Measured (docs/benchmarks.md "Agent
//! server", issue 24): a run in progress is ~8.6 KB of JSON, which SQLite
//! keeps as a leaf cell plus two overflow pages, and every step rewrote all
//! three (and the free-list pages the overflow chain went through) into the
//! WAL; compressed (~4× on this JSON) the row fits its leaf page, so a step
//! writes about half the WAL bytes, which the database thread writes and the
//! checkpointer copies and syncs. Compression runs on the request's thread,
//! not on the database thread every step waits for.
//!
//! Rows written before this (TEXT, plain JSON) are still read as they are;
//! the next write of the run stores it compressed. A server older than this
//! cannot read a compressed row (no downgrade of the data directory).

use super::StoreError;
use rusqlite::types::ValueRef;

/// Marks a compressed body: the magic, then LZ4's block format with the
/// JSON's length in front (little-endian u32).
const TAG: &[u8; 4] = b"lz4\0";
/// A stored body claiming to expand past this is corrupt (a run's JSON is
/// bounded by the request body limit, far below it).
const MAX_JSON: usize = 256 << 20;

/// The stored form of a run's JSON.
pub(super) fn pack(json: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(TAG.len() + 4 + json.len() / 2);
    out.extend_from_slice(TAG);
    out.extend_from_slice(&lz4_flex::block::compress_prepend_size(json.as_bytes()));
    out
}

/// A run's JSON from its stored form: a compressed BLOB, or the plain TEXT
/// of rows written before compression.
pub(super) fn unpack(stored: ValueRef<'_>) -> Result<String, StoreError> {
    let corrupt = |why: &str| StoreError::Task(format!("stored run is corrupt: {why}"));
    match stored {
        ValueRef::Text(t) => String::from_utf8(t.to_vec()).map_err(|_| corrupt("not UTF-8")),
        ValueRef::Blob(b) => {
            let packed = b
                .strip_prefix(TAG)
                .ok_or_else(|| corrupt("unknown format"))?;
            let len = packed
                .get(..4)
                .map(|n| u32::from_le_bytes([n[0], n[1], n[2], n[3]]) as usize)
                .ok_or_else(|| corrupt("truncated"))?;
            if len > MAX_JSON {
                return Err(corrupt("length out of range"));
            }
            let json = lz4_flex::block::decompress_size_prepended(packed)
                .map_err(|e| corrupt(&e.to_string()))?;
            String::from_utf8(json).map_err(|_| corrupt("not UTF-8"))
        }
        _ => Err(corrupt("not text or blob")),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_plain_rows() {
        let json = format!(
            "{{\"runId\":\"r\",\"history\":[{}]}}",
            "\"click e12\",".repeat(400) + "\"x\""
        );
        let packed = pack(&json);
        assert!(
            packed.len() * 3 < json.len(),
            "{} of {}",
            packed.len(),
            json.len()
        );
        assert_eq!(unpack(ValueRef::Blob(&packed)).unwrap(), json);
        // A row written before compression.
        assert_eq!(unpack(ValueRef::Text(json.as_bytes())).unwrap(), json);
    }

    #[test]
    fn corrupt_bodies_are_errors_not_panics() {
        let packed = pack("{\"runId\":\"r\"}");
        for bad in [
            &b"zzz\0\x05\0\0\0abc"[..],
            &packed[..6],
            &packed[..packed.len() - 2],
            b"lz4\0\xff\xff\xff\xff",
        ] {
            assert!(unpack(ValueRef::Blob(bad)).is_err(), "{bad:?}");
        }
        assert!(unpack(ValueRef::Integer(3)).is_err());
    }
}
