-- The plans every installation starts with (README: "Plans"). Operators change limits or add
-- plans with `POST /api/admin/plans`; this only fills an empty table.
INSERT INTO "plans" ("name", "monthly_limit") VALUES
  ('free', 1000),
  ('pro', 50000),
  ('business', 1000000)
ON CONFLICT ("name") DO NOTHING;
