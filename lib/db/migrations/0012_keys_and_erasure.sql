CREATE TABLE "privacy_erasures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cpf_hashes" text[] NOT NULL,
	"document_masked" text NOT NULL,
	"reason" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"requested_by" uuid NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"result" jsonb,
	CONSTRAINT "privacy_erasures_state_check" CHECK ("privacy_erasures"."state" in ('pending', 'confirmed', 'cancelled')),
	CONSTRAINT "privacy_erasures_four_eyes" CHECK ("privacy_erasures"."decided_by" is null or "privacy_erasures"."decided_by" <> "privacy_erasures"."requested_by")
);
--> statement-breakpoint
ALTER TABLE "audit_checkpoints" ADD COLUMN "key_id" text DEFAULT '1' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "key_id" text DEFAULT '1' NOT NULL;--> statement-breakpoint
ALTER TABLE "case_entries" ADD COLUMN "redacted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "case_entries" ADD COLUMN "redacted_by" uuid;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "verification_index" ADD COLUMN "cpf_key_id" text;--> statement-breakpoint
ALTER TABLE "privacy_erasures" ADD CONSTRAINT "privacy_erasures_requested_by_staff_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_erasures" ADD CONSTRAINT "privacy_erasures_decided_by_staff_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "privacy_erasures_state_idx" ON "privacy_erasures" USING btree ("state","requested_at");--> statement-breakpoint
ALTER TABLE "case_entries" ADD CONSTRAINT "case_entries_redacted_by_staff_users_id_fk" FOREIGN KEY ("redacted_by") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Hashes made before key rings existed were made under the single secret, which the ring calls "1".
UPDATE "verification_index" SET "cpf_key_id" = '1' WHERE "cpf_hash" IS NOT NULL;
