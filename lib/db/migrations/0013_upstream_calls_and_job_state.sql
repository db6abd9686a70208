CREATE TABLE "upstream_calls" (
	"day" text NOT NULL,
	"source" text NOT NULL,
	"kind" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "upstream_calls_day_source_kind_pk" PRIMARY KEY("day","source","kind")
);
--> statement-breakpoint
ALTER TABLE "job_leases" ADD COLUMN "state" jsonb DEFAULT '{}'::jsonb NOT NULL;