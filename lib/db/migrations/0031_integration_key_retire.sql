-- An integration key can be retired from the dashboard. The contract offers only the creation of a key (POST
-- /integrations: no operation lists or revokes one), so retiring marks the key in the dashboard's registry, who did
-- it and why; the key stays valid at the service until an admin revokes it in the provider's own dashboard
-- (docs/assumptions.md#integration-key-retire). Retired, never deleted: the audit trail's references stay readable.
ALTER TABLE integration_keys ADD COLUMN retired_at timestamp with time zone;
--> statement-breakpoint
ALTER TABLE integration_keys ADD COLUMN retired_by uuid REFERENCES staff_users(id);
--> statement-breakpoint
ALTER TABLE integration_keys ADD COLUMN retire_reason text;
--> statement-breakpoint
ALTER TABLE integration_keys ADD CONSTRAINT integration_keys_retired_check CHECK ((retired_at IS NULL) = (retire_reason IS NULL));
