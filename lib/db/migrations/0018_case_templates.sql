-- Decision templates (issue 32): a reason set and a comment with placeholders for one kind of decision, the
-- member's own (personal, owner_id set) or the team's (managed by cases.assign, owner_id null). Retired, never
-- deleted, so the trail's ids keep naming something. No personal data by rule (a CPF is refused at save), so the
-- comment is stored as typed, not sealed like a case's comment.
CREATE TABLE "case_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"scope" text NOT NULL,
	"owner_id" uuid,
	"name" text NOT NULL,
	"reasons" text[] DEFAULT '{}'::text[] NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone,
	CONSTRAINT "case_templates_kind_check" CHECK ("case_templates"."kind" in ('approve', 'reprove', 'escalate')),
	CONSTRAINT "case_templates_scope_check" CHECK (("case_templates"."scope" = 'personal' and "case_templates"."owner_id" is not null) or ("case_templates"."scope" = 'team' and "case_templates"."owner_id" is null))
);
--> statement-breakpoint
ALTER TABLE "case_templates" ADD CONSTRAINT "case_templates_owner_id_staff_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_templates" ADD CONSTRAINT "case_templates_created_by_staff_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "case_templates_name_key" ON "case_templates" USING btree ("kind","scope",coalesce("owner_id", '00000000-0000-0000-0000-000000000000'::uuid),lower("name")) WHERE "case_templates"."retired_at" is null;
--> statement-breakpoint
CREATE INDEX "case_templates_owner_idx" ON "case_templates" USING btree ("owner_id","kind");
