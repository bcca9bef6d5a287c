-- Announces which coordinates of failure_state a statement changed, so an API process can keep the
-- preflight's candidate states in memory and drop exactly what moved (libs/api-http preflight cache).
-- One notification per statement, not per row: the projector writes a chunk's states in one statement.
-- The payload is space-separated 16-hex-digit hashes, never identifiers: any role that can connect may
-- LISTEN, and a tenant's run ids and principals are not for other tenants' eyes. A run key is announced as
-- md5('r' US tenant US run), a fleet key as md5('p' US tenant US principal) (US = the unit separator,
-- E'\x1f'); a collision only drops more than needed. NOTIFY is delivered on commit, never for a rollback.
CREATE OR REPLACE FUNCTION tokencircuit_notify_failure_state_changes() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  coordinate text;
  batch text := '';
BEGIN
  FOR coordinate IN
    SELECT DISTINCT left(md5(CASE WHEN scope = 'run'
                                  THEN 'r' || E'\x1f' || tenant || E'\x1f' || coalesce(run, '')
                                  ELSE 'p' || E'\x1f' || tenant || E'\x1f' || coalesce(principal, '') END), 16)
      FROM changed
  LOOP
    -- A notification's payload must stay under 8000 bytes.
    IF octet_length(batch) > 7900 - 17 THEN
      PERFORM pg_notify('failure_state_changes', batch);
      batch := '';
    END IF;
    batch := CASE WHEN batch = '' THEN coordinate ELSE batch || ' ' || coordinate END;
  END LOOP;
  IF batch <> '' THEN
    PERFORM pg_notify('failure_state_changes', batch);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER failure_state_inserted_notify
  AFTER INSERT ON failure_state REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION tokencircuit_notify_failure_state_changes();
--> statement-breakpoint
CREATE TRIGGER failure_state_updated_notify
  AFTER UPDATE ON failure_state REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION tokencircuit_notify_failure_state_changes();
--> statement-breakpoint
CREATE TRIGGER failure_state_deleted_notify
  AFTER DELETE ON failure_state REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION tokencircuit_notify_failure_state_changes();
