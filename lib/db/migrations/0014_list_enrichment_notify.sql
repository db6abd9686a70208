-- The list's enrichment (ref_id, the open case's age and owner) is cached per instance
-- (lib/verifications/server/enrichment-cache.ts). Whatever changes it must reach every instance, whichever code
-- path made the change: these triggers announce it on `kyc_enrichment_change` when the transaction commits
-- ('v:<public id>' for one verification, '*' when a member's name or email changes).
CREATE OR REPLACE FUNCTION kyc_notify_enrichment_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'staff_users' THEN
    PERFORM pg_notify('kyc_enrichment_change', '*');
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('kyc_enrichment_change', 'v:' || OLD.public_id);
  ELSE
    PERFORM pg_notify('kyc_enrichment_change', 'v:' || NEW.public_id);
    IF TG_OP = 'UPDATE' AND OLD.public_id IS DISTINCT FROM NEW.public_id THEN
      PERFORM pg_notify('kyc_enrichment_change', 'v:' || OLD.public_id);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER verification_index_enrichment_insert_notify AFTER INSERT OR DELETE ON verification_index
  FOR EACH ROW EXECUTE FUNCTION kyc_notify_enrichment_change();
--> statement-breakpoint
-- Re-keying a CPF hash changes nothing the list shows.
CREATE TRIGGER verification_index_enrichment_update_notify AFTER UPDATE ON verification_index
  FOR EACH ROW WHEN (OLD.ref_id IS DISTINCT FROM NEW.ref_id OR OLD.public_id IS DISTINCT FROM NEW.public_id)
  EXECUTE FUNCTION kyc_notify_enrichment_change();
--> statement-breakpoint
CREATE TRIGGER cases_enrichment_insert_notify AFTER INSERT OR DELETE ON cases
  FOR EACH ROW EXECUTE FUNCTION kyc_notify_enrichment_change();
--> statement-breakpoint
CREATE TRIGGER cases_enrichment_update_notify AFTER UPDATE ON cases
  FOR EACH ROW WHEN (
    OLD.status IS DISTINCT FROM NEW.status OR OLD.opened_at IS DISTINCT FROM NEW.opened_at
    OR OLD.assignee_id IS DISTINCT FROM NEW.assignee_id OR OLD.public_id IS DISTINCT FROM NEW.public_id
  )
  EXECUTE FUNCTION kyc_notify_enrichment_change();
--> statement-breakpoint
CREATE TRIGGER staff_users_enrichment_notify AFTER UPDATE ON staff_users
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.email IS DISTINCT FROM NEW.email)
  EXECUTE FUNCTION kyc_notify_enrichment_change();
