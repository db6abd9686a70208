-- Notifications people read (issue 32). A notification about one case names it by the case's ref_id (the
-- caller's own reference, not personal data), kept with it; a digest links to a page of its own (the case queue
-- filtered to overdue). A digest covers several cases, one row each in notification_cases, each marked handled
-- when the case is (recommendation recorded, confirmed, closed, reassigned away, opened by the member): the
-- digest counts the cases left and is read when none is.
ALTER TABLE notifications ADD COLUMN case_ref text;
--> statement-breakpoint
ALTER TABLE notifications ADD COLUMN link text;
--> statement-breakpoint
CREATE TABLE notification_cases (
	notification_id bigint NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
	case_public_id text NOT NULL,
	handled_at timestamp with time zone,
	PRIMARY KEY (notification_id, case_public_id)
);
--> statement-breakpoint
CREATE INDEX notification_cases_case_idx ON notification_cases (case_public_id) WHERE handled_at IS NULL;
--> statement-breakpoint
CREATE INDEX notifications_case_unread_idx ON notifications (case_public_id) WHERE read_at IS NULL;
