-- A member's connection grants (staff_connection_access) are read with their session and kept in each instance's
-- session cache (lib/auth/server/session-cache.ts), so a change to them must reach every instance at once, like a
-- role change: announced on `kyc_session_change` as the member's ('u:<staff id>') when the transaction commits.
CREATE OR REPLACE FUNCTION kyc_notify_connection_access_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('kyc_session_change', 'u:' || OLD.staff_id::text);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('kyc_session_change', 'u:' || NEW.staff_id::text);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER staff_connection_access_notify AFTER INSERT OR UPDATE OR DELETE ON staff_connection_access
  FOR EACH ROW EXECUTE FUNCTION kyc_notify_connection_access_change();
