-- A step's stream events are appended, not inserted into the middle of a
-- tree (docs/benchmarks.md "Agent server", issue 24). `run_events` was a
-- WITHOUT ROWID table keyed by (run_id, seq) with each event's JSON in the
-- key's leaf: 500 runs in progress put every step's ~2–3 events into a
-- different leaf in the middle of the tree, each leaf filled in a few steps
-- and split (three siblings and their parent rewritten), so the events were
-- ~4 of the ~5 WAL pages a step wrote. Now the events are rows appended at
-- the end of a rowid table (one leaf shared by every step of a batch), and
-- only a small index (two integers per event) takes the run's place: runs
-- are numbered (`run_no`, never reused: AUTOINCREMENT, so an event cannot
-- be taken for another run's) and events refer to that number.
CREATE TABLE runs_v4 (
    run_no INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id TEXT NOT NULL UNIQUE,
    body TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    owner TEXT,
    active INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 1,
    last_seq INTEGER NOT NULL DEFAULT 0,
    touched INTEGER NOT NULL DEFAULT 0
);
INSERT INTO runs_v4 (run_id, body, updated_at, owner, active, version, last_seq, touched)
    SELECT run_id, body, updated_at, owner, active, version, last_seq, touched FROM runs
    ORDER BY rowid;
CREATE TABLE run_events_v4 (
    run_no INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL
);
INSERT INTO run_events_v4 (run_no, seq, body)
    SELECT r.run_no, e.seq, e.body FROM run_events e JOIN runs_v4 r ON r.run_id = e.run_id
    ORDER BY r.run_no, e.seq;
DROP TABLE run_events;
DROP TABLE runs;
ALTER TABLE runs_v4 RENAME TO runs;
ALTER TABLE run_events_v4 RENAME TO run_events;
CREATE UNIQUE INDEX run_events_seq ON run_events(run_no, seq);
CREATE INDEX runs_touched ON runs(touched);
CREATE INDEX runs_owner_active ON runs(owner, active, touched);
