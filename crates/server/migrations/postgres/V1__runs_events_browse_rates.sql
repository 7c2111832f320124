-- The run store on PostgreSQL (docs/server.md "Running several replicas").
-- Bodies are JSON text as the server wrote it (never re-parsed by the
-- database: a run's snapshot is stored as the client sent it).
CREATE TABLE runs (
    run_id TEXT PRIMARY KEY,
    body TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    owner TEXT,
    active BOOLEAN NOT NULL DEFAULT FALSE,
    -- Bumped by every committed change: a replica's cached copy is good
    -- while its version is the stored one.
    version BIGINT NOT NULL DEFAULT 1,
    -- The last event's sequence number (events are numbered 1, 2, … per run).
    last_seq BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX runs_updated_at ON runs (updated_at);
-- Counting a caller's running runs (the quota) reads only active rows.
CREATE INDEX runs_owner_active ON runs (owner, updated_at) WHERE active;

CREATE TABLE replies (
    run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    idem_key TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    status INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (run_id, idem_key, endpoint)
);

CREATE TABLE run_events (
    run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    seq BIGINT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
);

CREATE TABLE browse_sessions (
    session_id TEXT PRIMARY KEY,
    body TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX browse_sessions_updated_at ON browse_sessions (updated_at);

-- Request rates shared by every replica (GCRA: one theoretical arrival
-- time per caller). Unlogged: a crash of the database forgets rates, which
-- is harmless, and no request waits for a WAL flush to be counted.
CREATE UNLOGGED TABLE rate_buckets (
    key TEXT PRIMARY KEY,
    tat DOUBLE PRECISION NOT NULL
);
