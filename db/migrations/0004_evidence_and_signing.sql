CREATE TABLE "evidence" (
	"id" serial PRIMARY KEY NOT NULL,
	"nonce" text NOT NULL,
	"kind" text NOT NULL,
	"data" jsonb NOT NULL,
	"observed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "page_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"tool" text NOT NULL,
	"turn_secret" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"task_id" uuid
);
--> statement-breakpoint
CREATE TABLE "signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"private_pkcs8" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "evidence" ADD CONSTRAINT "evidence_nonce_page_nonces_nonce_fk" FOREIGN KEY ("nonce") REFERENCES "public"."page_nonces"("nonce") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "evidence_nonce_idx" ON "evidence" USING btree ("nonce");--> statement-breakpoint
CREATE INDEX "page_nonces_expires_idx" ON "page_nonces" USING btree ("expires_at");