-- Issue 34: a bot-detector task stored from a body of the interface spec's shape (no `signals`)
-- is scored from the body's own `scoring` entries, the client's word. Before, one that came with
-- a page's live nonce was stored `verified: true`, and a `verdict` or `frameworks` the client wrote
-- was stored among the service's members. Those tasks now say what new ones say: not verified
-- (`unverified.code` client-scored), the client's `verdict` and `frameworks` dropped and named in
-- `dropped`. Only the rows that claimed either are rewritten; the reason is
-- UNVERIFIED_REASONS['client-scored'] of src/core/tools/verified.ts (db/migrations.test.ts).
UPDATE "tasks" SET "results" = ("results" - 'verdict' - 'frameworks')
  || jsonb_build_object(
    'verified', false,
    'unverified', jsonb_build_object('code', 'client-scored', 'reason', 'scored from the body''s own `scoring` entries: the client''s word, whatever nonce it carried')
  )
  || CASE WHEN "results" ? 'verdict' OR "results" ? 'frameworks'
    THEN jsonb_build_object('dropped', (SELECT jsonb_agg(k ORDER BY o) FROM unnest(ARRAY['verdict', 'frameworks']) WITH ORDINALITY AS m(k, o) WHERE "results" ? k))
    ELSE '{}'::jsonb END
WHERE "tool" = 'bot-detector' AND NOT ("results" ? 'signals')
  AND ("results" -> 'verified' = 'true'::jsonb OR "results" ? 'verdict' OR "results" ? 'frameworks');
