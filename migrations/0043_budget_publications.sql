-- Budget publications (issue 31): an outbox for the budget interventions and episode steps that spend crossings
-- append. recordBudgetCrossings inserts one pending row per appended intervention in the transaction that
-- appends it (the API's settle or refused preflight as tokencircuit_api with the tenant set; the projector's
-- settle as tokencircuit_writer); the decision service (tokencircuit_writer) claims pending rows, publishes the
-- stored intervention and episode step through its intervention publisher and marks them published in the same
-- transaction. The API marks the rows it published itself (its fast path) the same way.
CREATE TABLE IF NOT EXISTS budget_publications (
  intervention_id text PRIMARY KEY,
  tenant text NOT NULL,
  episode_event_id text,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  published_at timestamp with time zone,
  CONSTRAINT budget_publications_tenant_not_empty CHECK (tenant <> '')
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS budget_publications_pending_idx ON budget_publications (created_at)
  WHERE published_at IS NULL;
--> statement-breakpoint
ALTER TABLE budget_publications ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE budget_publications FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON budget_publications;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON budget_publications
  USING (tenant = current_setting('tokencircuit.tenant', true))
  WITH CHECK (tenant = current_setting('tokencircuit.tenant', true));
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokencircuit_writer') THEN
    GRANT SELECT, INSERT, UPDATE ON budget_publications TO tokencircuit_writer;
    DROP POLICY IF EXISTS writer_all_tenants ON budget_publications;
    CREATE POLICY writer_all_tenants ON budget_publications TO tokencircuit_writer USING (true) WITH CHECK (true);
  END IF;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokencircuit_api') THEN
    GRANT SELECT, INSERT, UPDATE ON budget_publications TO tokencircuit_api;
  END IF;
END
$$;
