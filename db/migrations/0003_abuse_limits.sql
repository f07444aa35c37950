CREATE TABLE "rate_windows" (
	"scope" text NOT NULL,
	"subject" text NOT NULL,
	"count" integer NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	CONSTRAINT "rate_windows_scope_subject_pk" PRIMARY KEY("scope","subject"),
	CONSTRAINT "rate_windows_scope_valid" CHECK ("rate_windows"."scope" in ('task_create', 'task_miss'))
);
--> statement-breakpoint
CREATE INDEX "rate_windows_window_idx" ON "rate_windows" USING btree ("window_started_at");