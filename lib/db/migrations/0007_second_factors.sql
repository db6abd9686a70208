CREATE TABLE "auth_challenges" (
	"id" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"challenge" text NOT NULL,
	"user_id" uuid,
	"session_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_factors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"totp_secret" text,
	"last_step" bigint,
	"credential_id" text,
	"public_key" text,
	"sign_count" bigint,
	"transports" text[],
	"confirmed_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_factors_kind_check" CHECK (("staff_factors"."kind" = 'totp' and "staff_factors"."totp_secret" is not null) or ("staff_factors"."kind" = 'passkey' and "staff_factors"."credential_id" is not null and "staff_factors"."public_key" is not null))
);
--> statement-breakpoint
CREATE TABLE "staff_recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "staff_sessions" ADD COLUMN "public_id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_sessions" ADD COLUMN "pending" text;--> statement-breakpoint
ALTER TABLE "staff_sessions" ADD COLUMN "second_factor_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "staff_sessions" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "staff_sessions" ADD COLUMN "ip" text;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "password_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "sso_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "auth_challenges" ADD CONSTRAINT "auth_challenges_user_id_staff_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_factors" ADD CONSTRAINT "staff_factors_user_id_staff_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_recovery_codes" ADD CONSTRAINT "staff_recovery_codes_user_id_staff_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_challenges_expires_idx" ON "auth_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "staff_factors_user_idx" ON "staff_factors" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_factors_credential_key" ON "staff_factors" USING btree ("credential_id");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_recovery_codes_hash_key" ON "staff_recovery_codes" USING btree ("user_id","code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_sessions_public_id_key" ON "staff_sessions" USING btree ("public_id");--> statement-breakpoint
-- One-time passwords issued before they could expire get the default lifetime from now (ONE_TIME_PASSWORD_HOURS).
UPDATE "staff_users" SET "password_expires_at" = now() + interval '72 hours' WHERE "must_change_password";
--> statement-breakpoint
-- A completed second step or a step-up changes what the session may do: every instance must hear of it.
DROP TRIGGER staff_sessions_revoke_notify ON staff_sessions;
--> statement-breakpoint
CREATE TRIGGER staff_sessions_revoke_notify AFTER UPDATE ON staff_sessions
  FOR EACH ROW WHEN (
    OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.user_id IS DISTINCT FROM NEW.user_id
    OR OLD.pending IS DISTINCT FROM NEW.pending OR OLD.second_factor_at IS DISTINCT FROM NEW.second_factor_at
  )
  EXECUTE FUNCTION kyc_notify_session_change();
