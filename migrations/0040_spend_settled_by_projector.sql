-- The projector settles spend (issue 31): an outcome that reaches Kafka directly (not through POST /v1/events)
-- settles its call's reservation in the same transaction as the event's fold. The projector writes every tenant
-- (tokencircuit_writer), so the spend tables get the writer policy the event tables have (migration 0003).
-- Also: the tool's recent average (an estimate for calls that declare none) reads settled usage by tool.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokencircuit_writer') THEN
    GRANT SELECT, INSERT, UPDATE ON spend_lines, spend_reservations TO tokencircuit_writer;
    DROP POLICY IF EXISTS writer_all_tenants ON spend_lines;
    CREATE POLICY writer_all_tenants ON spend_lines TO tokencircuit_writer USING (true) WITH CHECK (true);
    DROP POLICY IF EXISTS writer_all_tenants ON spend_reservations;
    CREATE POLICY writer_all_tenants ON spend_reservations TO tokencircuit_writer USING (true) WITH CHECK (true);
  END IF;
END
$$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS spend_reservations_recent_by_tool_idx ON spend_reservations (tenant, tool, finished_at DESC)
  WHERE state IN ('settled', 'unreserved');
