-- Roles are cluster-wide while this migration runs once per database, and several databases
-- (tests, tenants of a shared server) may migrate at the same moment: create each role only if
-- missing, and treat losing the creation race as success.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokencircuit_audit') THEN
    BEGIN
      CREATE ROLE tokencircuit_audit NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokencircuit_writer') THEN
    BEGIN
      CREATE ROLE tokencircuit_writer NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
END
$$;
--> statement-breakpoint
-- The migrating user owns the tables; FORCE RLS below applies the policies to the owner too, so
-- it writes every tenant through membership in tokencircuit_writer, and it needs membership in
-- tokencircuit_audit to SET ROLE for tenant-scoped reads. A superuser is a member of every role
-- already, so nothing cluster-wide changes when a superuser migrates.
DO $$
BEGIN
  IF NOT pg_has_role(current_user, 'tokencircuit_writer', 'MEMBER') THEN
    GRANT tokencircuit_writer TO CURRENT_USER;
  END IF;
  IF NOT pg_has_role(current_user, 'tokencircuit_audit', 'MEMBER') THEN
    GRANT tokencircuit_audit TO CURRENT_USER;
  END IF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE WARNING 'could not grant tokencircuit_writer/tokencircuit_audit to %: %', current_user, SQLERRM
    USING HINT = 'Run as a role with ADMIN OPTION on them: GRANT tokencircuit_writer, tokencircuit_audit TO <application login>;';
END
$$;
--> statement-breakpoint
GRANT SELECT ON agent_events, failure_state, decision_outbox, interventions TO tokencircuit_audit;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON agent_events, failure_state, decision_outbox, projector_checkpoints TO tokencircuit_writer;
--> statement-breakpoint
-- Append-only at the privilege level as well as by trigger.
GRANT SELECT, INSERT ON interventions TO tokencircuit_writer;
--> statement-breakpoint
GRANT USAGE ON SEQUENCE interventions_seq_seq, agent_events_seq_seq TO tokencircuit_writer;
--> statement-breakpoint
-- Tenant isolation: a session sees and writes only the rows of the tenant in the transaction-local
-- setting tokencircuit.tenant (withTenant() sets it). With the setting absent, current_setting(..., true)
-- is NULL or '' and matches nothing: tenants are never empty (CHECK constraints).
ALTER TABLE agent_events ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE agent_events FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON agent_events
  USING (tenant = current_setting('tokencircuit.tenant', true))
  WITH CHECK (tenant = current_setting('tokencircuit.tenant', true));
--> statement-breakpoint
CREATE POLICY writer_all_tenants ON agent_events TO tokencircuit_writer USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE failure_state ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE failure_state FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON failure_state
  USING (tenant = current_setting('tokencircuit.tenant', true))
  WITH CHECK (tenant = current_setting('tokencircuit.tenant', true));
--> statement-breakpoint
CREATE POLICY writer_all_tenants ON failure_state TO tokencircuit_writer USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE decision_outbox ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE decision_outbox FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON decision_outbox
  USING (tenant = current_setting('tokencircuit.tenant', true))
  WITH CHECK (tenant = current_setting('tokencircuit.tenant', true));
--> statement-breakpoint
CREATE POLICY writer_all_tenants ON decision_outbox TO tokencircuit_writer USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE interventions ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE interventions FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON interventions
  USING (tenant = current_setting('tokencircuit.tenant', true))
  WITH CHECK (tenant = current_setting('tokencircuit.tenant', true));
--> statement-breakpoint
CREATE POLICY writer_all_tenants ON interventions TO tokencircuit_writer USING (true) WITH CHECK (true);
