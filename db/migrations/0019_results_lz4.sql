-- A task's results are compressed with LZ4 where the server has it (PostgreSQL 14 and later built
-- with lz4, as Debian's and the official images are): a stored task's results (~2 KB of JSON for a
-- script's bot-detector body) pass PostgreSQL's 2 KB threshold and are compressed at insert, and
-- pglz, the default, cost ~10 µs of the server's CPU more per task than LZ4 (docs/performance.md,
-- issue 61); LZ4 decompresses faster too. Only the column's method for new values changes (no
-- rewrite; rows stored before keep theirs and read as before). PGlite has no LZ4 and stays on
-- pglz: the same migration, which then changes nothing. The statement runs through EXECUTE so that
-- a server without the clause (before PostgreSQL 14) refuses it at run time, where it is caught,
-- and keeps pglz too.
DO $$
BEGIN
  EXECUTE 'ALTER TABLE "tasks" ALTER COLUMN "results" SET COMPRESSION lz4';
EXCEPTION WHEN feature_not_supported OR syntax_error THEN
  NULL;
END
$$;
