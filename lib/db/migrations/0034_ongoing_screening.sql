-- Ongoing screening (issue 34, item 2): people the dashboard approved are looked up again within a daily budget of
-- upstream calls the admin sets (monitoring_settings, one row); the facts seen at each screening (monitoring_screenings:
-- PEP yes/no, restrictive list names, deceased; the CPF only as the audit ring's keyed hash and the masked document);
-- and a monitoring alert per change and verification (monitoring_alerts; the unique index keeps one per change
-- whatever instance saw it). Both follow their case: removed with it by the cases' retention.
CREATE TABLE "monitoring_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"daily_budget" integer DEFAULT 0 NOT NULL,
	"spent_day" text,
	"spent_calls" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monitoring_settings_one_row" CHECK ("monitoring_settings"."id" = 1),
	CONSTRAINT "monitoring_settings_budget_check" CHECK ("monitoring_settings"."daily_budget" >= 0)
);
--> statement-breakpoint
INSERT INTO "monitoring_settings" ("id") VALUES (1);
--> statement-breakpoint
CREATE TABLE "monitoring_screenings" (
	"public_id" text PRIMARY KEY NOT NULL,
	"connection_id" text NOT NULL,
	"cpf_hash" text,
	"cpf_key_id" text,
	"document_masked" text,
	"last_screened_at" timestamp with time zone NOT NULL,
	"pep" boolean NOT NULL,
	"lists" text[] DEFAULT '{}'::text[] NOT NULL,
	"deceased" boolean NOT NULL,
	"cpf_checked" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "monitoring_screenings" ADD CONSTRAINT "monitoring_screenings_public_id_cases_public_id_fk" FOREIGN KEY ("public_id") REFERENCES "public"."cases"("public_id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "monitoring_screenings_due_idx" ON "monitoring_screenings" USING btree ("last_screened_at");
--> statement-breakpoint
CREATE TABLE "monitoring_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"public_id" text NOT NULL,
	"connection_id" text NOT NULL,
	"document_masked" text,
	"change" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"detected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"assignee_id" uuid,
	"assigned_at" timestamp with time zone,
	"outcome" text,
	"outcome_by" uuid,
	"outcome_at" timestamp with time zone,
	CONSTRAINT "monitoring_alerts_status_check" CHECK ("monitoring_alerts"."status" in ('open', 'closed')),
	CONSTRAINT "monitoring_alerts_outcome_check" CHECK ("monitoring_alerts"."outcome" is null or "monitoring_alerts"."outcome" in ('cleared', 'confirmed'))
);
--> statement-breakpoint
ALTER TABLE "monitoring_alerts" ADD CONSTRAINT "monitoring_alerts_public_id_cases_public_id_fk" FOREIGN KEY ("public_id") REFERENCES "public"."cases"("public_id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "monitoring_alerts" ADD CONSTRAINT "monitoring_alerts_assignee_id_staff_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "monitoring_alerts" ADD CONSTRAINT "monitoring_alerts_outcome_by_staff_users_id_fk" FOREIGN KEY ("outcome_by") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "monitoring_alerts_change_idx" ON "monitoring_alerts" USING btree ("public_id","change");
--> statement-breakpoint
CREATE INDEX "monitoring_alerts_queue_idx" ON "monitoring_alerts" USING btree ("status","detected_at");
