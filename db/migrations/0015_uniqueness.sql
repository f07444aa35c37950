CREATE TABLE "uniqueness_browsers" (
	"tool" text NOT NULL,
	"browser" text NOT NULL,
	"range" text NOT NULL,
	"shard" smallint NOT NULL,
	"names" text[] NOT NULL,
	"vals" text[] NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	CONSTRAINT "uniqueness_browsers_tool_browser_pk" PRIMARY KEY("tool","browser")
);
--> statement-breakpoint
CREATE TABLE "uniqueness_counts" (
	"tool" text NOT NULL,
	"name" text NOT NULL,
	"value" text NOT NULL,
	"shard" smallint NOT NULL,
	"browsers" integer NOT NULL,
	CONSTRAINT "uniqueness_counts_tool_name_value_shard_pk" PRIMARY KEY("tool","name","value","shard")
);
--> statement-breakpoint
CREATE TABLE "uniqueness_ranges" (
	"tool" text NOT NULL,
	"range" text NOT NULL,
	"browsers" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "uniqueness_ranges_tool_range_pk" PRIMARY KEY("tool","range")
);
--> statement-breakpoint
CREATE INDEX "uniqueness_browsers_last_seen_idx" ON "uniqueness_browsers" USING btree ("last_seen");--> statement-breakpoint
CREATE INDEX "uniqueness_ranges_empty_idx" ON "uniqueness_ranges" USING btree ("created_at") WHERE "uniqueness_ranges"."browsers" <= 0;