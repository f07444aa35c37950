ALTER TABLE "page_nonces" ADD COLUMN "run_id" uuid;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "run_id" uuid;--> statement-breakpoint
CREATE INDEX "tasks_run_id_idx" ON "tasks" USING btree ("run_id") WHERE "tasks"."run_id" is not null;