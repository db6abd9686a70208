CREATE TABLE "staff_roles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"permissions" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "staff_users" DROP CONSTRAINT "staff_users_role_check";--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "custom_role_id" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "staff_roles_name_lower_key" ON "staff_roles" USING btree (lower("name")) WHERE "staff_roles"."retired_at" is null;--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_custom_role_id_staff_roles_id_fk" FOREIGN KEY ("custom_role_id") REFERENCES "public"."staff_roles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_users_custom_role_idx" ON "staff_users" USING btree ("custom_role_id");--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_custom_role_check" CHECK (("staff_users"."role" = 'custom') = ("staff_users"."custom_role_id" is not null));--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_role_check" CHECK ("staff_users"."role" in ('viewer', 'analyst', 'reviewer', 'auditor', 'admin', 'custom'));--> statement-breakpoint
-- A change to a custom role's permissions (or its retirement) must reach every instance's session cache at
-- once, like a change to a user (0005_session_change_notify): 'r:<role id>' makes each instance forget the
-- sessions of the members holding it, so their next request reads the new permissions.
CREATE OR REPLACE FUNCTION kyc_notify_role_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('kyc_session_change', 'r:' || OLD.id::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER staff_roles_change_notify AFTER UPDATE OR DELETE ON staff_roles
  FOR EACH ROW EXECUTE FUNCTION kyc_notify_role_change();
