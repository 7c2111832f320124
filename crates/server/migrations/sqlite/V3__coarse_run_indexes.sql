-- A step rewrites its run's row; while `updated_at` (milliseconds) was in
-- two indexes, every step also moved the run's entry in both, so each
-- commit rewrote those index pages into the WAL (docs/benchmarks.md "Agent
-- server", issue 24). The indexes now hold the minute of the last change
-- (`touched`, kept equal to updated_at / 60000 by every write), which moves
-- once a minute; queries filter on the exact `updated_at` beside it.
ALTER TABLE runs ADD COLUMN touched INTEGER NOT NULL DEFAULT 0;
UPDATE runs SET touched = updated_at / 60000;
DROP INDEX IF EXISTS runs_updated_at;
DROP INDEX IF EXISTS runs_owner_active;
CREATE INDEX runs_touched ON runs(touched);
CREATE INDEX runs_owner_active ON runs(owner, active, touched);
