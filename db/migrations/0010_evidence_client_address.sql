ALTER TABLE "evidence" ADD COLUMN "client_ip" text;--> statement-breakpoint
ALTER TABLE "evidence" ADD COLUMN "away" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "page_nonces" ADD COLUMN "client_ip" text;