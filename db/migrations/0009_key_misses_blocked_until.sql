ALTER TABLE "api_keys" ADD COLUMN "misses_blocked_until" timestamp with time zone;--> statement-breakpoint
-- Keys shut out by their miss window when this runs stay shut out until it ends. The window's
-- size is configuration (TASK_MISS_LIMIT), not data: the default, 100 misses per 600 s, is assumed.
UPDATE "api_keys" SET "misses_blocked_until" = w."window_started_at" + interval '600 seconds'
FROM "rate_windows" w
WHERE w."scope" = 'task_miss' AND w."subject" = "api_keys"."id"::text AND w."count" >= 100
  AND w."window_started_at" + interval '600 seconds' > now();
