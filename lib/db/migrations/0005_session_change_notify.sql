-- Session checks are cached per instance (lib/auth/session-cache.ts). Whatever ends or changes a session
-- must reach every instance at once, whichever code path made the change: these triggers announce it on
-- the channel `kyc_session_change` when the transaction commits ('s:<session id>' or 'u:<user id>').
CREATE OR REPLACE FUNCTION kyc_notify_session_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'staff_sessions' THEN
    PERFORM pg_notify('kyc_session_change', 's:' || OLD.id);
  ELSE
    PERFORM pg_notify('kyc_session_change', 'u:' || OLD.id::text);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A session's once-a-minute last_seen_at touch is not a change anyone else needs to hear about.
CREATE TRIGGER staff_sessions_revoke_notify AFTER UPDATE ON staff_sessions
  FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION kyc_notify_session_change();
--> statement-breakpoint
CREATE TRIGGER staff_sessions_delete_notify AFTER DELETE ON staff_sessions
  FOR EACH ROW EXECUTE FUNCTION kyc_notify_session_change();
--> statement-breakpoint
CREATE TRIGGER staff_users_change_notify AFTER UPDATE OR DELETE ON staff_users
  FOR EACH ROW EXECUTE FUNCTION kyc_notify_session_change();
