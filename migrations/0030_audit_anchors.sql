-- Audit anchors (docs/audit.md): the decision service signs each tenant's chain head and a digest of its agent
-- events and publishes them outside the database. This table only lets it resume after a restart without
-- reading every event again; verification never trusts it (it recomputes from the trail and compares with
-- an anchor kept elsewhere: the audit-anchors topic or an exported file).
CREATE TABLE IF NOT EXISTS audit_anchor_heads (
  tenant text PRIMARY KEY,
  anchor jsonb NOT NULL,
  events_through bigint NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT audit_anchor_heads_tenant_not_empty CHECK (tenant <> '')
);
--> statement-breakpoint
GRANT SELECT ON audit_anchor_heads TO tokencircuit_audit;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON audit_anchor_heads TO tokencircuit_writer;
--> statement-breakpoint
ALTER TABLE audit_anchor_heads ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE audit_anchor_heads FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON audit_anchor_heads;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON audit_anchor_heads
  USING (tenant = current_setting('tokencircuit.tenant', true))
  WITH CHECK (tenant = current_setting('tokencircuit.tenant', true));
--> statement-breakpoint
DROP POLICY IF EXISTS writer_all_tenants ON audit_anchor_heads;
--> statement-breakpoint
CREATE POLICY writer_all_tenants ON audit_anchor_heads TO tokencircuit_writer USING (true) WITH CHECK (true);
--> statement-breakpoint
-- The agent_events seq below which no event can still appear. seq values are taken before their transaction
-- commits, so a projector batch still running may hold a lower seq than one already visible; SHARE mode waits
-- for every transaction inserting into agent_events to end, after which every seq the sequence has handed out
-- is committed or gone for good. The lock is held only for this statement (the caller runs it alone) and
-- gives up after 2 s (the anchorer tries again on its next round) so ingest never queues behind it for long.
-- SECURITY DEFINER: LOCK in SHARE mode needs UPDATE/DELETE/TRUNCATE on the table, which no service role has.
CREATE OR REPLACE FUNCTION tokencircuit_agent_events_horizon() RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT SET lock_timeout = '2s' AS $$
DECLARE
  horizon bigint;
BEGIN
  LOCK TABLE agent_events IN SHARE MODE;
  SELECT CASE WHEN is_called THEN last_value ELSE 0 END INTO horizon FROM agent_events_seq_seq;
  RETURN horizon;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION tokencircuit_agent_events_horizon() FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION tokencircuit_agent_events_horizon() TO tokencircuit_writer;
