-- Ongoing screening (issue 34): one OPEN alert per change and verification, not one ever. A person taken off a list
-- and put back on it later (or a PEP status that ends and starts again) is news again once the first alert is closed;
-- while it is open, the open alert stands for it and no second one opens, whatever instance or run sees the change.
DROP INDEX "monitoring_alerts_change_idx";
--> statement-breakpoint
CREATE UNIQUE INDEX "monitoring_alerts_open_change_idx" ON "monitoring_alerts" USING btree ("public_id","change") WHERE "monitoring_alerts"."status" = 'open';
