ALTER TABLE "tasks" ADD COLUMN "run_digest" text;--> statement-breakpoint
CREATE INDEX "tasks_run_digest_idx" ON "tasks" USING btree ("run_digest") WHERE "tasks"."run_digest" is not null;