-- The spend ledger (issue 31, docs/budgets.md). One row per budget, subject (a run, an agent, a principal, the
-- tenant) and window: its limit as the policy said when the row was last touched, what settled calls spent and
-- what open reservations hold. Preflight reserves an estimate on every covering row under row locks, all or none;
-- an outcome settles the actual amount and releases the rest; a reservation never settled expires. Amounts are
-- whole ledger units: tokens, calls, or micro-units of the policy's currency.
CREATE TABLE IF NOT EXISTS spend_lines (
  tenant text NOT NULL,
  budget_id text NOT NULL,
  subject text NOT NULL,
  -- 'run', an hour bucket ('2026-01-31T23'), a local day ('2026-01-31') or month ('2026-01'): text sorts in time order.
  window_start text NOT NULL,
  meter text NOT NULL,
  limit_amount bigint NOT NULL,
  spent bigint NOT NULL DEFAULT 0,
  reserved bigint NOT NULL DEFAULT 0,
  updated_at timestamp with time zone NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant, budget_id, subject, window_start),
  CONSTRAINT spend_lines_meter_known CHECK (meter IN ('tokens', 'cost', 'calls')),
  CONSTRAINT spend_lines_amounts_not_negative CHECK (spent >= 0 AND reserved >= 0 AND limit_amount > 0)
);
--> statement-breakpoint
-- One row per call (tenant, run, call id): a preflight's reservation and its holds, until the outcome settles it
-- (or it expires); a usage report of a call that reserved nothing is recorded as 'unreserved'. Settling is
-- idempotent: only a held row moves, so a re-delivered outcome settles nothing twice.
CREATE TABLE IF NOT EXISTS spend_reservations (
  tenant text NOT NULL,
  run text NOT NULL,
  call_id text NOT NULL,
  agent text NOT NULL,
  tool text NOT NULL,
  state text NOT NULL,
  -- [{ "b": budget id, "s": subject, "w": window, "m": meter, "a": amount }]
  holds jsonb NOT NULL,
  -- { "tokens": n, "cost": micro-units, "calls": n } reported by the outcome, and where its cost came from.
  actual jsonb,
  cost_basis text,
  created_at timestamp with time zone NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  finished_at timestamp with time zone,
  PRIMARY KEY (tenant, run, call_id),
  CONSTRAINT spend_reservations_state_known CHECK (state IN ('held', 'settled', 'expired', 'unreserved'))
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS spend_reservations_due_idx ON spend_reservations (tenant, expires_at) WHERE state = 'held';
--> statement-breakpoint
ALTER TABLE spend_lines ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE spend_lines FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE spend_reservations ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE spend_reservations FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON spend_lines;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON spend_lines
  USING (tenant = current_setting('tokencircuit.tenant', true))
  WITH CHECK (tenant = current_setting('tokencircuit.tenant', true));
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON spend_reservations;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON spend_reservations
  USING (tenant = current_setting('tokencircuit.tenant', true))
  WITH CHECK (tenant = current_setting('tokencircuit.tenant', true));
--> statement-breakpoint
-- The API reserves and settles (its own login role, the tenant set per transaction, under the policy above);
-- tenant reads (the dashboard's spend view, the audit role) only read. No writer policy: no service sees all tenants.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokencircuit_api') THEN
    GRANT SELECT, INSERT, UPDATE ON spend_lines, spend_reservations TO tokencircuit_api;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokencircuit_audit') THEN
    GRANT SELECT ON spend_lines, spend_reservations TO tokencircuit_audit;
  END IF;
END
$$;
