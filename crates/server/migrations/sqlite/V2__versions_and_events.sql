-- Each committed change of a run bumps its version; its stream events
-- (docs/server.md "The live run stream") are numbered 1, 2, … per run.
ALTER TABLE runs ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE runs ADD COLUMN last_seq INTEGER NOT NULL DEFAULT 0;
CREATE TABLE run_events (
    run_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
