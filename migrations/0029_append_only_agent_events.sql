-- agent_events is the input every projection is rebuilt from (`tokencircuit replay`) and the evidence behind
-- every intervention: append-only like interventions, for every role. Privileges first: no service role (the
-- writer group and its projector/decision logins, the audit group and its API/auditor logins) keeps UPDATE,
-- DELETE or TRUNCATE. The 0016 login roles may be missing (that migration only warns without CREATEROLE).
DO $$
DECLARE
  r text;
BEGIN
  FOREACH r IN ARRAY ARRAY['tokencircuit_writer', 'tokencircuit_audit', 'tokencircuit_projector',
                           'tokencircuit_decision', 'tokencircuit_api', 'tokencircuit_auditor'] LOOP
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN
      EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON agent_events FROM %I', r);
    END IF;
  END LOOP;
  REVOKE UPDATE, DELETE, TRUNCATE ON agent_events FROM PUBLIC;
END
$$;
--> statement-breakpoint
-- Then triggers, so the table owner and superusers are refused too (privileges never bind them). Disabling the
-- triggers takes the owner; what is changed that way is named by `tokencircuit verify` against an anchor
-- (the anchored events digest, docs/audit.md). The projector's duplicate delivery is INSERT … ON CONFLICT DO
-- NOTHING, which never updates.
CREATE OR REPLACE FUNCTION tokencircuit_refuse_agent_event_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    RAISE EXCEPTION 'agent_events is append-only: % of event % of tenant % (seq %) refused', TG_OP, OLD.id, OLD.tenant, OLD.seq
      USING ERRCODE = 'insufficient_privilege',
            HINT = 'Agent events are never edited or deleted; replay and the audit trail are built from them.';
  END IF;
  RAISE EXCEPTION 'agent_events is append-only: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege',
          HINT = 'Agent events are never edited or deleted; replay and the audit trail are built from them.';
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS agent_events_refuse_update ON agent_events;
--> statement-breakpoint
CREATE TRIGGER agent_events_refuse_update
  BEFORE UPDATE ON agent_events
  FOR EACH ROW EXECUTE FUNCTION tokencircuit_refuse_agent_event_change();
--> statement-breakpoint
DROP TRIGGER IF EXISTS agent_events_refuse_delete ON agent_events;
--> statement-breakpoint
CREATE TRIGGER agent_events_refuse_delete
  BEFORE DELETE ON agent_events
  FOR EACH ROW EXECUTE FUNCTION tokencircuit_refuse_agent_event_change();
--> statement-breakpoint
DROP TRIGGER IF EXISTS agent_events_refuse_truncate ON agent_events;
--> statement-breakpoint
CREATE TRIGGER agent_events_refuse_truncate
  BEFORE TRUNCATE ON agent_events
  FOR EACH STATEMENT EXECUTE FUNCTION tokencircuit_refuse_agent_event_change();
