-- When a member takes an unassigned case (issue 32, "no wasted key"): on opening its page ('on_open'), on the
-- first decision key ('on_decision', the default), or only by the explicit claim ('never'). One setting for the
-- team, beside the routing settings (the row id 1), so every instance reads the same one.
ALTER TABLE case_routing_settings ADD COLUMN take_mode text NOT NULL DEFAULT 'on_decision';
--> statement-breakpoint
ALTER TABLE case_routing_settings ADD CONSTRAINT case_routing_settings_take_mode_check CHECK (take_mode IN ('on_open', 'on_decision', 'never'));
