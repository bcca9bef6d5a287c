-- Episode lifecycle steps (triggered, escalated, acknowledged, resolved): part of the audit trail,
-- append-only like interventions (privileges and triggers), tenant-isolated like every other table.
-- event_id is the stable id subscribers dedupe on; recording the same step twice is a no-op.
CREATE TABLE episode_events (
  seq bigserial PRIMARY KEY,
  event_id text NOT NULL,
  tenant text NOT NULL,
  key_id text NOT NULL,
  episode integer NOT NULL,
  episode_id text NOT NULL,
  transition text NOT NULL,
  level text NOT NULL,
  state_version integer NOT NULL,
  data jsonb NOT NULL,
  occurred_at timestamp with time zone NOT NULL,
  recorded_at timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT episode_events_event_id_key UNIQUE (event_id),
  CONSTRAINT episode_events_tenant_not_empty CHECK (tenant <> ''),
  CONSTRAINT episode_events_transition_known CHECK (transition IN ('triggered', 'escalated', 'acknowledged', 'resolved')),
  CONSTRAINT episode_events_level_known CHECK (level IN ('advise', 'block', 'page'))
);
--> statement-breakpoint
CREATE INDEX episode_events_tenant_key_episode_idx ON episode_events (tenant, key_id, episode, seq);
--> statement-breakpoint
CREATE INDEX episode_events_tenant_occurred_at_idx ON episode_events (tenant, occurred_at);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tokencircuit_refuse_episode_event_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'episode_events is an append-only audit trail: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege',
          HINT = 'Episode events are never edited or deleted; a later step is a new row.';
END
$$;
--> statement-breakpoint
CREATE TRIGGER episode_events_refuse_update
  BEFORE UPDATE ON episode_events
  FOR EACH ROW EXECUTE FUNCTION tokencircuit_refuse_episode_event_change();
--> statement-breakpoint
CREATE TRIGGER episode_events_refuse_delete
  BEFORE DELETE ON episode_events
  FOR EACH ROW EXECUTE FUNCTION tokencircuit_refuse_episode_event_change();
--> statement-breakpoint
CREATE TRIGGER episode_events_refuse_truncate
  BEFORE TRUNCATE ON episode_events
  FOR EACH STATEMENT EXECUTE FUNCTION tokencircuit_refuse_episode_event_change();
--> statement-breakpoint
GRANT SELECT ON episode_events TO tokencircuit_audit;
--> statement-breakpoint
GRANT SELECT, INSERT ON episode_events TO tokencircuit_writer;
--> statement-breakpoint
GRANT USAGE ON SEQUENCE episode_events_seq_seq TO tokencircuit_writer;
--> statement-breakpoint
ALTER TABLE episode_events ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE episode_events FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON episode_events
  USING (tenant = current_setting('tokencircuit.tenant', true))
  WITH CHECK (tenant = current_setting('tokencircuit.tenant', true));
--> statement-breakpoint
CREATE POLICY writer_all_tenants ON episode_events TO tokencircuit_writer USING (true) WITH CHECK (true);
