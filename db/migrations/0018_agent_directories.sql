CREATE TABLE "agent_directories" (
	"url" text PRIMARY KEY NOT NULL,
	"body" jsonb,
	"failure" text,
	"fetched_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
