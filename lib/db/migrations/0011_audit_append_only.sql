-- The audit trail is append-only in the database itself, whatever code (or person) holds the application's
-- connection: UPDATE is always refused on audit_events and audit_checkpoints, DELETE and TRUNCATE too, with one
-- exception, the retention pruner (lib/audit-trail/server/prune.ts).
--
-- The pruner's way through is a transaction-local setting, not a SECURITY DEFINER function: the application and
-- the pruner connect as the same role (always on PGlite, usually on PostgreSQL), so a function's owner would not
-- tell them apart, and any code could call the function. The pruner runs, inside its own transaction and under
-- the writers' advisory lock, `select set_config('kyc.audit_prune_through', '<id>', true)` (SET LOCAL): the
-- setting ends with that transaction, so it never leaks to another request through a pooled connection, it
-- lets through only DELETEs of events up to that id (a prefix, which the pruner covers with a signed
-- checkpoint), and never an UPDATE. No ordinary UPDATE or DELETE of the application carries it. Someone with
-- database access who sets it on purpose (or, as superuser, disables the trigger) still cannot forge the chain
-- or a checkpoint without the audit key: `npm run audit:verify` shows the gap.
CREATE OR REPLACE FUNCTION kyc_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  through bigint;
BEGIN
  IF TG_OP = 'DELETE' AND TG_TABLE_NAME = 'audit_events' THEN
    through := nullif(current_setting('kyc.audit_prune_through', true), '')::bigint;
    IF through IS NOT NULL AND OLD.id <= through THEN
      RETURN OLD;
    END IF;
  END IF;
  RAISE EXCEPTION '% is append-only: % refused (only the retention pruner deletes, through its own path)', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION kyc_audit_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION kyc_audit_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_checkpoints_append_only BEFORE UPDATE OR DELETE ON audit_checkpoints
  FOR EACH ROW EXECUTE FUNCTION kyc_audit_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_checkpoints_no_truncate BEFORE TRUNCATE ON audit_checkpoints
  FOR EACH STATEMENT EXECUTE FUNCTION kyc_audit_append_only();
