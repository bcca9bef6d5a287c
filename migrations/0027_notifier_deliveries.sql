-- The notifier's durable delivery record: one row per (episode step, sink), keyed by a stable id
-- (UUIDv5 of the step's event id and the sink name), so a redelivered step is a no-op and a restart
-- neither loses nor repeats a delivery. The row holds the step, never a request: requests are built at
-- send time from the routing file, so no routing key, webhook URL or signing secret reaches this table.
CREATE TABLE IF NOT EXISTS notifier_deliveries (
  seq bigserial NOT NULL,
  id text PRIMARY KEY,
  tenant text NOT NULL,
  sink text NOT NULL,
  sink_type text NOT NULL,
  event_id text NOT NULL,
  episode_id text NOT NULL,
  transition text NOT NULL,
  level text NOT NULL,
  step jsonb NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamp with time zone NOT NULL DEFAULT now(),
  claimed_until timestamp with time zone,
  last_status integer,
  last_error text,
  -- Dead rows are published to the notifier DLQ after they are marked; a crash in between republishes them.
  dlq_published_at timestamp with time zone,
  -- dead rows: permanent (the receiver refused it for good) or exhausted (every attempt failed).
  dead_cause text CHECK (dead_cause IN ('permanent', 'exhausted')),
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  finished_at timestamp with time zone,
  CONSTRAINT notifier_deliveries_status_known CHECK (status IN ('pending', 'sent', 'dead', 'skipped')),
  CONSTRAINT notifier_deliveries_sink_type_known CHECK (sink_type IN ('pagerduty', 'slack', 'webhook', 'alertmanager')),
  CONSTRAINT notifier_deliveries_tenant_not_empty CHECK (tenant <> '')
);
--> statement-breakpoint
-- The dispatcher's claim: due pending rows in arrival order, and the head of each (sink, episode) queue.
CREATE INDEX IF NOT EXISTS notifier_deliveries_pending_idx
  ON notifier_deliveries (sink, episode_id, seq) WHERE status = 'pending';
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS notifier_deliveries_due_idx
  ON notifier_deliveries (next_attempt_at, seq) WHERE status = 'pending';
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS notifier_deliveries_episode_idx ON notifier_deliveries (episode_id, sink);
--> statement-breakpoint
-- Where an embedded notifier (PGlite, no Kafka) has read episode_events up to.
CREATE TABLE IF NOT EXISTS notifier_checkpoints (
  source text PRIMARY KEY,
  position bigint NOT NULL,
  updated_at timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- The notifier's login role, like the others of 0016: never superuser or BYPASSRLS; it reaches every
-- tenant's deliveries through its own policy. Losing a creation race to another database's migration is success.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokencircuit_notifier') THEN
    BEGIN
      CREATE ROLE tokencircuit_notifier LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOREPLICATION;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokencircuit_notifier' AND (rolsuper OR rolbypassrls OR rolcreaterole OR rolcreatedb)) THEN
    ALTER ROLE tokencircuit_notifier NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
  END IF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE WARNING 'could not create the tokencircuit_notifier login role: %', SQLERRM
    USING HINT = 'Migrate as a role with CREATEROLE (or a superuser), or create tokencircuit_notifier (LOGIN, no superuser) by hand.';
END
$$;
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokencircuit_notifier') THEN
    GRANT SELECT, INSERT, UPDATE ON notifier_deliveries TO tokencircuit_notifier;
    GRANT USAGE ON SEQUENCE notifier_deliveries_seq_seq TO tokencircuit_notifier;
    GRANT SELECT, INSERT, UPDATE ON notifier_checkpoints TO tokencircuit_notifier;
    -- The embedded-style source reads the lifecycle steps from the audit trail (read only).
    GRANT SELECT ON episode_events TO tokencircuit_notifier;
  END IF;
END
$$;
--> statement-breakpoint
GRANT SELECT ON notifier_deliveries TO tokencircuit_audit;
--> statement-breakpoint
ALTER TABLE notifier_deliveries ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE notifier_deliveries FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP POLICY IF EXISTS tenant_isolation ON notifier_deliveries;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON notifier_deliveries
  USING (tenant = current_setting('tokencircuit.tenant', true))
  WITH CHECK (tenant = current_setting('tokencircuit.tenant', true));
--> statement-breakpoint
DROP POLICY IF EXISTS notifier_all_tenants ON notifier_deliveries;
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokencircuit_notifier') THEN
    CREATE POLICY notifier_all_tenants ON notifier_deliveries TO tokencircuit_notifier USING (true) WITH CHECK (true);
  END IF;
END
$$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS notifier_deliveries_dlq_unpublished_idx
  ON notifier_deliveries (seq) WHERE status = 'dead' AND dlq_published_at IS NULL;
