-- One login role per service, none of them superuser or BYPASSRLS, so a service's credentials open only
-- what that service needs (docs/security.md). Passwords are not set here: `npm run migrate` sets them from
-- TOKENCIRCUIT_<ROLE>_DB_PASSWORD when given (libs/storage/src/service-roles.ts). Roles are cluster-wide and
-- several databases may migrate at once (see 0003): create and grant only what is missing, and take losing
-- a race as success when the end state holds.
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT * FROM (VALUES
      ('tokencircuit_projector', 'tokencircuit_writer'),
      ('tokencircuit_decision', 'tokencircuit_writer'),
      ('tokencircuit_api', 'tokencircuit_audit'),
      ('tokencircuit_auditor', 'tokencircuit_audit')) AS v(login, grp)
  LOOP
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r.login) THEN
      BEGIN
        EXECUTE format('CREATE ROLE %I LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOREPLICATION', r.login);
      EXCEPTION WHEN duplicate_object OR unique_violation THEN
        NULL;
      END;
    END IF;
    -- A role created by hand before this migration may carry more power than it should: take it away.
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r.login AND (rolsuper OR rolbypassrls OR rolcreaterole OR rolcreatedb)) THEN
      EXECUTE format('ALTER ROLE %I NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE', r.login);
    END IF;
    IF NOT pg_has_role(r.login, r.grp, 'MEMBER') THEN
      BEGIN
        EXECUTE format('GRANT %I TO %I', r.grp, r.login);
      EXCEPTION WHEN OTHERS THEN
        IF NOT pg_has_role(r.login, r.grp, 'MEMBER') THEN
          RAISE;
        END IF;
      END;
    END IF;
  END LOOP;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE WARNING 'could not create the service login roles: %', SQLERRM
    USING HINT = 'Migrate as a role with CREATEROLE (or a superuser), or create tokencircuit_projector, tokencircuit_decision (members of tokencircuit_writer), tokencircuit_api and tokencircuit_auditor (members of tokencircuit_audit) by hand.';
END
$$;
