-- The person's name on each case (issue 32, "a queue that fits and ranks"): the queue shows it, masked for a member
-- without personal_data.unmasked. Personal data, so sealed at rest like a case's free text
-- (lib/cases/server/sealed-text.ts): an envelope `v1.<key id>.…`, never the name itself; re-sealed by the rotation
-- job and cleared by an erasure.
--
-- The stored priority (flag weights, raised when escalated) is read by nothing now: the queue computes its priority
-- when it is read (lib/cases/priority.ts, lib/cases/server/priority-sql.ts), and this release no longer writes it.
-- The column stays (DEFAULT 0, so nothing needs to write it) while an instance of the previous release, which does
-- write it, may still run beside this one in a rolling deploy; a later release drops it.
ALTER TABLE cases ADD COLUMN person_name text;
