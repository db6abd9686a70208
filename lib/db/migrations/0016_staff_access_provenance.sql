-- Who gave each staff account its access, and when (four eyes between people who predate the request,
-- docs/security.md): the member who created it, who last re-enabled it, who last gave it its current role. An
-- erasure or a case confirmation refuses a confirmer whose account the requester made, re-enabled or gave its
-- role after the request or within FOUR_EYES_INDEPENDENCE_HOURS before it. Accounts made before this migration
-- count as given their role when they were created, by nobody known.
ALTER TABLE staff_users ADD COLUMN created_by uuid REFERENCES staff_users(id) ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE staff_users ADD COLUMN enabled_at timestamp with time zone;
--> statement-breakpoint
ALTER TABLE staff_users ADD COLUMN enabled_by uuid REFERENCES staff_users(id) ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE staff_users ADD COLUMN role_given_at timestamp with time zone;
--> statement-breakpoint
ALTER TABLE staff_users ADD COLUMN role_given_by uuid REFERENCES staff_users(id) ON DELETE SET NULL;
--> statement-breakpoint
UPDATE staff_users SET role_given_at = created_at;
--> statement-breakpoint
ALTER TABLE staff_users ALTER COLUMN role_given_at SET DEFAULT now();
--> statement-breakpoint
ALTER TABLE staff_users ALTER COLUMN role_given_at SET NOT NULL;
