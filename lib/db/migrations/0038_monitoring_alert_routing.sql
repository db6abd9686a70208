-- Monitoring alerts routed like cases (issue 34, item 2): the queue the team's routing rules sent the alert to
-- (case_queues; a retired queue's open alerts go to the default queue, as its cases do). Alerts opened before this
-- migration wait in the default queue. An alert's notes are case_entries of its case (kind `monitoring_note`), so the
-- erasure and the re-seal job cover them with the case's other texts: no table of their own.
ALTER TABLE "monitoring_alerts" ADD COLUMN "queue_id" uuid DEFAULT '00000000-0000-4000-8000-000000000001' NOT NULL;
--> statement-breakpoint
ALTER TABLE "monitoring_alerts" ADD CONSTRAINT "monitoring_alerts_queue_id_case_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."case_queues"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "monitoring_alerts_holder_idx" ON "monitoring_alerts" USING btree ("assignee_id") WHERE "status" = 'open';
