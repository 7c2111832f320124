-- The schema as it was before versioned migrations (databases written by
-- earlier servers already have it: every statement is IF NOT EXISTS; one
-- older still, without owner/active, is brought up to here before this runs).
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    body TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    owner TEXT,
    active INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS runs_updated_at ON runs(updated_at);
CREATE INDEX IF NOT EXISTS runs_owner_active ON runs(owner, active, updated_at);
CREATE TABLE IF NOT EXISTS replies (
    run_id TEXT NOT NULL,
    idem_key TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    status INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (run_id, idem_key, endpoint)
);
CREATE TABLE IF NOT EXISTS browse_sessions (
    session_id TEXT PRIMARY KEY,
    body TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS browse_sessions_updated_at ON browse_sessions(updated_at);
