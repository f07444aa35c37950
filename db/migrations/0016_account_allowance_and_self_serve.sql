CREATE TABLE "plan_usage" (
	"account_id" uuid NOT NULL,
	"plan_id" integer NOT NULL,
	"month" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "plan_usage_account_id_plan_id_month_pk" PRIMARY KEY("account_id","plan_id","month")
);
--> statement-breakpoint
DROP INDEX "tasks_tool_fingerprint_idx";--> statement-breakpoint
ALTER TABLE "page_nonces" ADD COLUMN "reported_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "plan_usage" ADD CONSTRAINT "plan_usage_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_usage" ADD CONSTRAINT "plan_usage_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tasks_tool_fingerprint_address_idx" ON "tasks" USING btree ("tool","fingerprint","ip_address","created_at") WHERE "tasks"."fingerprint" is not null;--> statement-breakpoint
-- The month's counts so far move to the account's allowance on each plan (issue 57): the sum
-- of what its keys fetched, each key under the plan it is on now. Deleted keys' counts were
-- gone with their rows; from here on the allowance outlives its keys.
INSERT INTO "plan_usage" ("account_id", "plan_id", "month", "count")
SELECT ak."account_id", ak."plan_id", ku."month", sum(ku."count")::int
FROM "key_usage" ku JOIN "api_keys" ak ON ak."id" = ku."key_id"
GROUP BY ak."account_id", ak."plan_id", ku."month";--> statement-breakpoint
-- Only the free plan is self-serve (issue 57): the seeded pro and business plans are the
-- operator's to assign (keys already on them keep them). A plan the operator added keeps the
-- visibility the operator gave it.
UPDATE "plans" SET "self_serve" = ("name" = 'free') WHERE "name" IN ('free', 'pro', 'business');
