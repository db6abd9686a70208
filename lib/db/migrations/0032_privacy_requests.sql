-- Titular requests on a clock (issue 34, item 3; LGPD art. 18 and 19, ANPD resolution 18/2024): each request a
-- titular makes, known by the keyed hashes of their CPF and its masked form (never the CPF), its contact and written
-- answer sealed under the data key ring, due PRIVACY_REQUEST_DUE_DAYS after receipt, told late to the privacy
-- officers once (`late_notified_at`, claimed by one conditional update), and closed with what was sent.
CREATE TABLE "privacy_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cpf_hashes" text[] NOT NULL,
	"document_masked" text NOT NULL,
	"kind" text NOT NULL,
	"channel" text NOT NULL,
	"contact_sealed" text,
	"contact_masked" text,
	"received_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"opened_by" uuid NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"late_notified_at" timestamp with time zone,
	"closed_by" uuid,
	"closed_at" timestamp with time zone,
	"sent" text,
	"answer_sealed" text,
	"erasure_id" uuid,
	"report_event_id" bigint,
	CONSTRAINT "privacy_requests_state_check" CHECK ("privacy_requests"."state" in ('open', 'closed')),
	CONSTRAINT "privacy_requests_kind_check" CHECK ("privacy_requests"."kind" in ('access', 'correction', 'erasure', 'portability', 'information', 'objection')),
	CONSTRAINT "privacy_requests_channel_check" CHECK ("privacy_requests"."channel" in ('email', 'web_form', 'phone', 'letter', 'in_person', 'other')),
	CONSTRAINT "privacy_requests_sent_check" CHECK ("privacy_requests"."sent" is null or "privacy_requests"."sent" in ('report', 'erasure', 'written')),
	CONSTRAINT "privacy_requests_closed_check" CHECK (("privacy_requests"."state" = 'open') = ("privacy_requests"."closed_at" is null) and ("privacy_requests"."state" = 'open') = ("privacy_requests"."sent" is null))
);
--> statement-breakpoint
ALTER TABLE "privacy_requests" ADD CONSTRAINT "privacy_requests_opened_by_staff_users_id_fk" FOREIGN KEY ("opened_by") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "privacy_requests" ADD CONSTRAINT "privacy_requests_closed_by_staff_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "privacy_requests" ADD CONSTRAINT "privacy_requests_erasure_id_privacy_erasures_id_fk" FOREIGN KEY ("erasure_id") REFERENCES "public"."privacy_erasures"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "privacy_requests_open_idx" ON "privacy_requests" USING btree ("due_at") WHERE state = 'open';
--> statement-breakpoint
CREATE INDEX "privacy_requests_closed_idx" ON "privacy_requests" USING btree ("state","closed_at");
