-- Cheaper turns (docs/benchmarks.md "Agent server"): every /step rewrites its
-- run's row, so the row is laid out for PostgreSQL's cheapest update.
--
-- 1. A HOT update (no index entries, the new version on the same page) needs
--    no indexed column to change. `updated_at` changed at every step and was
--    in two indexes; they now index the minute it falls in (generated from
--    `updated_at`, so every writer keeps it right), which changes at most
--    once a minute per run. Queries filter on both (the index narrows, the
--    exact time decides).
-- 2. Room on the page for the new version: fillfactor 50 (runs' rows are a
--    few KB; new pages keep half free).
-- 3. The body stays in the row, compressed (lz4 where the server has it),
--    instead of in TOAST chunks rewritten, indexed and vacuumed at every
--    step. A body too large for a page still goes to TOAST.
-- 4. Replies and events no longer reference runs by foreign key: each insert
--    ran a trigger that locked the run's row again (which the turn holds
--    already). They are only written by a turn holding, or compare-and-
--    setting, the run's row, and expiry deletes them with their run.
ALTER TABLE replies DROP CONSTRAINT IF EXISTS replies_run_id_fkey;
ALTER TABLE run_events DROP CONSTRAINT IF EXISTS run_events_run_id_fkey;

ALTER TABLE runs ADD COLUMN idle_minute BIGINT GENERATED ALWAYS AS (updated_at / 60000) STORED;
DROP INDEX runs_updated_at;
DROP INDEX runs_owner_active;
CREATE INDEX runs_idle_minute ON runs (idle_minute);
CREATE INDEX runs_owner_active ON runs (owner, idle_minute) WHERE active;

ALTER TABLE runs SET (fillfactor = 50);
ALTER TABLE runs ALTER COLUMN body SET STORAGE MAIN;
-- lz4 (PostgreSQL 14+ built with it) compresses ~10× faster than the
-- default pglz; without it the default stays.
DO $$
BEGIN
    EXECUTE 'ALTER TABLE runs ALTER COLUMN body SET COMPRESSION lz4';
EXCEPTION WHEN OTHERS THEN
    NULL;
END
$$;
