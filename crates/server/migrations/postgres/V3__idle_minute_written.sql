-- `idle_minute` written by the statements that write `updated_at` (the run's
-- insert and every turn's update), no longer GENERATED: PostgreSQL 15
-- rebuilds a stored generated column's expression at every execution of an
-- UPDATE or INSERT (`ExecInitStoredGenerated`: the expression read back from
-- the catalog and planned again), 2.8 % of its CPU per /step in the bench,
-- where `$3::bigint / 60000` in the statement's own list costs nothing
-- measurable (docs/benchmarks.md, "Where PostgreSQL's CPU per step went",
-- issue-24z). The values stay: DROP EXPRESSION keeps them as plain data.
-- NOT NULL (as it was, derived from a NOT NULL column): a writer that leaves
-- it out fails instead of writing a run that never expires.
ALTER TABLE runs ALTER COLUMN idle_minute DROP EXPRESSION;
ALTER TABLE runs ALTER COLUMN idle_minute SET NOT NULL;
