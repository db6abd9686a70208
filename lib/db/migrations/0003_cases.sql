CREATE TABLE "case_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"case_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid,
	"kind" text NOT NULL,
	"text" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"public_id" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"upstream_status" text NOT NULL,
	"flags" text[] DEFAULT '{}'::text[] NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"document_masked" text,
	"upstream_created_at" timestamp with time zone,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"final_status" text,
	"disagreement" boolean DEFAULT false NOT NULL,
	"assignee_id" uuid,
	"assigned_at" timestamp with time zone,
	"recommendation" text,
	"reasons" text[],
	"outcome_comment" text,
	"outcome_by" uuid,
	"outcome_at" timestamp with time zone,
	"outcome_state" text,
	"confirmed_by" uuid,
	"confirmed_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cases_public_id_unique" UNIQUE("public_id"),
	CONSTRAINT "cases_status_check" CHECK ("cases"."status" in ('open', 'closed')),
	CONSTRAINT "cases_recommendation_check" CHECK ("cases"."recommendation" is null or "cases"."recommendation" in ('approve', 'reprove', 'escalate'))
);
--> statement-breakpoint
CREATE TABLE "job_leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text,
	"expires_at" timestamp with time zone NOT NULL,
	"last_finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "verification_index" (
	"public_id" text PRIMARY KEY NOT NULL,
	"ref_id" text,
	"cpf_hash" text,
	"document_masked" text,
	"created_here" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "case_entries" ADD CONSTRAINT "case_entries_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_entries" ADD CONSTRAINT "case_entries_actor_id_staff_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_assignee_id_staff_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_outcome_by_staff_users_id_fk" FOREIGN KEY ("outcome_by") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_confirmed_by_staff_users_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_entries_case_idx" ON "case_entries" USING btree ("case_id","id");--> statement-breakpoint
CREATE INDEX "cases_queue_idx" ON "cases" USING btree ("status","opened_at");--> statement-breakpoint
CREATE INDEX "cases_assignee_idx" ON "cases" USING btree ("assignee_id","status");--> statement-breakpoint
CREATE INDEX "verification_index_ref_idx" ON "verification_index" USING btree ("ref_id");--> statement-breakpoint
CREATE INDEX "verification_index_cpf_idx" ON "verification_index" USING btree ("cpf_hash");