-- Run memories (issue 30): a run's no_progress ring at a key's coordinates while no detector has found
-- anything there. The core opens the no_progress key (a failure_state row) only at the first finding; until
-- then the projector keeps the ring here, one row per coordinates (id = the core's progressMemoryId: tenant,
-- run, tool, resource class, auth scope, read or write), written once per transaction that changed it and
-- deleted in the transaction that opens its key. Loaded with the candidate states by (tenant, run, tool), so
-- a restarted or rebalanced projector folds on from the same ring the reference fold has.
CREATE TABLE IF NOT EXISTS progress_memories (
  id text PRIMARY KEY,
  tenant text NOT NULL,
  run text NOT NULL,
  tool_name text NOT NULL,
  memory json NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT progress_memories_tenant_not_empty CHECK (tenant <> '')
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS progress_memories_run_tool_idx ON progress_memories (tenant, run, tool_name);
--> statement-breakpoint
ALTER TABLE progress_memories ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE progress_memories FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON progress_memories;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON progress_memories
  USING (tenant = current_setting('tokencircuit.tenant', true))
  WITH CHECK (tenant = current_setting('tokencircuit.tenant', true));
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokencircuit_writer') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON progress_memories TO tokencircuit_writer;
    DROP POLICY IF EXISTS writer_all_tenants ON progress_memories;
    CREATE POLICY writer_all_tenants ON progress_memories TO tokencircuit_writer USING (true) WITH CHECK (true);
  END IF;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokencircuit_audit') THEN
    GRANT SELECT ON progress_memories TO tokencircuit_audit;
  END IF;
END
$$;
