-- Suspicious-activity reports to COAF (issue 34, item 1; Lei 9.613/1998 art. 11): a draft opened from a case, its
-- summary sealed under the data key ring like a case note, its grounds and operations, and once filed the SISCOAF
-- protocol. Never shown to the person or to a member without `coaf.report` (art. 11 §2: no tipping off); kept five
-- years from filing and left alone by an erasure. The case may leave first (its own retention): the report keeps
-- the case's public id and the masked document.
CREATE TABLE "suspicious_activity_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid,
	"case_public_id" text NOT NULL,
	"connection_id" text NOT NULL,
	"document_masked" text,
	"summary_sealed" text NOT NULL,
	"grounds" text[] NOT NULL,
	"operations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"opened_by" uuid NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"protocol" text,
	"filed_at" timestamp with time zone,
	"filed_by" uuid,
	"filed_recorded_at" timestamp with time zone,
	CONSTRAINT "suspicious_activity_reports_status_check" CHECK ("suspicious_activity_reports"."status" in ('draft', 'filed')),
	CONSTRAINT "suspicious_activity_reports_filed_check" CHECK (("suspicious_activity_reports"."status" = 'filed') = ("suspicious_activity_reports"."protocol" is not null) and ("suspicious_activity_reports"."status" = 'filed') = ("suspicious_activity_reports"."filed_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "suspicious_activity_reports" ADD CONSTRAINT "suspicious_activity_reports_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "suspicious_activity_reports" ADD CONSTRAINT "suspicious_activity_reports_opened_by_staff_users_id_fk" FOREIGN KEY ("opened_by") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "suspicious_activity_reports" ADD CONSTRAINT "suspicious_activity_reports_filed_by_staff_users_id_fk" FOREIGN KEY ("filed_by") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "suspicious_activity_reports_status_idx" ON "suspicious_activity_reports" USING btree ("status","opened_at");
--> statement-breakpoint
CREATE INDEX "suspicious_activity_reports_case_idx" ON "suspicious_activity_reports" USING btree ("case_id");
