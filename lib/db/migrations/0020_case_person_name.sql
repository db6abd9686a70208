-- The person's name on each case (issue 32, "a queue that fits and ranks"): the queue shows it, masked for a member
-- without personal_data.unmasked. Personal data, so sealed at rest like a case's free text
-- (lib/cases/server/sealed-text.ts): an envelope `v1.<key id>.…`, never the name itself; re-sealed by the rotation
-- job and cleared by an erasure.
ALTER TABLE cases ADD COLUMN person_name text;
--> statement-breakpoint
-- The stored priority (flag weights, raised when escalated) is read by nothing: the queue computes its priority
-- when it is read (lib/cases/priority.ts, lib/cases/server/priority-sql.ts).
ALTER TABLE cases DROP COLUMN priority;
