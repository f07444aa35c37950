-- One fixed-window table for every limit (src/core/fixed-window.ts): the failed log-in counts
-- move from login_throttles into rate_windows under the scopes login_account and login_address,
-- keeping their counts and window starts, so a lock-out in force stays in force.
ALTER TABLE "rate_windows" DROP CONSTRAINT "rate_windows_scope_valid";--> statement-breakpoint
ALTER TABLE "rate_windows" ADD CONSTRAINT "rate_windows_scope_valid" CHECK ("rate_windows"."scope" in ('login_account', 'login_address', 'task_create', 'task_miss'));--> statement-breakpoint
INSERT INTO "rate_windows" ("scope", "subject", "count", "window_started_at")
  SELECT 'login_' || "scope", "subject", "failures", "window_started_at" FROM "login_throttles"
ON CONFLICT ("scope", "subject") DO NOTHING;--> statement-breakpoint
DROP TABLE "login_throttles" CASCADE;
