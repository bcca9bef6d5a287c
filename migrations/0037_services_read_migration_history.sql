-- A connected service refuses to start on a database that is not at its build's migrations (checkDatabase).
-- The history is drizzle.__drizzle_migrations, owned by whoever ran `npm run migrate`: a least-privilege
-- service login could not read it, so its start went ahead unchecked. Reading it tells a login only which
-- migrations ran (their hashes and times), nothing of any tenant. Skipped for a role that does not exist, and
-- where the history is not drizzle's table (the embedded PGlite migrator keeps its own).
DO $$
DECLARE
  r text;
BEGIN
  IF to_regclass('drizzle.__drizzle_migrations') IS NULL THEN
    RETURN;
  END IF;
  FOREACH r IN ARRAY ARRAY['tokencircuit_projector', 'tokencircuit_decision', 'tokencircuit_api',
                           'tokencircuit_auditor', 'tokencircuit_notifier'] LOOP
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN
      EXECUTE format('GRANT USAGE ON SCHEMA drizzle TO %I', r);
      EXECUTE format('GRANT SELECT ON drizzle.__drizzle_migrations TO %I', r);
    END IF;
  END LOOP;
END
$$;
