ALTER TABLE "page_nonces" ADD COLUMN "evidence_dropped" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "self_serve" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The seeded plans stay self-serve; plans an operator added before this migration become
-- operator-only (assign them with the admin API, or mark them self-serve).
UPDATE "plans" SET "self_serve" = true WHERE "name" IN ('free', 'pro', 'business');
