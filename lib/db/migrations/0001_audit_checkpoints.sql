CREATE TABLE "audit_checkpoints" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"through_event_id" bigint NOT NULL,
	"through_event_hash" text NOT NULL,
	"through_event_at" timestamp with time zone NOT NULL,
	"removed_count" bigint NOT NULL,
	"cutoff" timestamp with time zone NOT NULL,
	"retention_days" integer NOT NULL,
	"signature" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_events_target_idx" ON "audit_events" USING btree ("target","at");