-- Leases of spend-line room (issue 31, docs/budgets.md "Leases"). An API process takes a slice of a line's room in
-- one conditional statement (only if carried + spent + reserved + slice <= limit) and adds it to the line's
-- `reserved`, so the line's committed total always includes every lease and the hard limit holds across processes
-- by construction. The process then serves preflights from the slice in memory and writes their reservations in
-- batches, moving each one's amount out of its lease (the line's totals unchanged). A lease that is not renewed
-- (its process crashed or stopped using it) expires: the sweep and a refusing preflight delete it and release its
-- amount on the line, like an expired reservation's hold.
CREATE TABLE IF NOT EXISTS spend_leases (
  tenant text NOT NULL,
  -- The holder's own id for the lease (its process and line), unique per tenant.
  lease_id text NOT NULL,
  budget_id text NOT NULL,
  subject text NOT NULL,
  window_start text NOT NULL,
  -- Room still leased: counted in the line's `reserved`, not yet given to a recorded reservation.
  amount bigint NOT NULL,
  created_at timestamp with time zone NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  PRIMARY KEY (tenant, lease_id),
  CONSTRAINT spend_leases_amount_not_negative CHECK (amount >= 0)
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS spend_leases_due_idx ON spend_leases (expires_at);
--> statement-breakpoint
ALTER TABLE spend_leases ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE spend_leases FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON spend_leases;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON spend_leases
  USING (tenant = current_setting('tokencircuit.tenant', true))
  WITH CHECK (tenant = current_setting('tokencircuit.tenant', true));
--> statement-breakpoint
-- The API leases, flushes and returns (its role, the tenant set); the writer's expiry sweep releases any tenant's
-- due leases; the audit role may read them (what a line's `reserved` is made of).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokencircuit_api') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON spend_leases TO tokencircuit_api;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokencircuit_writer') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON spend_leases TO tokencircuit_writer;
    DROP POLICY IF EXISTS writer_all_tenants ON spend_leases;
    CREATE POLICY writer_all_tenants ON spend_leases TO tokencircuit_writer USING (true) WITH CHECK (true);
  END IF;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokencircuit_audit') THEN
    GRANT SELECT ON spend_leases TO tokencircuit_audit;
  END IF;
END
$$;
