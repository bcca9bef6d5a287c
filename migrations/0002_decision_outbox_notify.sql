-- Wakes the decision service as soon as the projector's transaction commits (NOTIFY is delivered
-- on commit, never for a rolled-back insert). The payload is the outbox row id; a missed
-- notification only costs latency, because the service also polls the pending index.
CREATE OR REPLACE FUNCTION tokencircuit_notify_decision_outbox() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('decision_outbox', NEW.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER decision_outbox_notify
  AFTER INSERT ON decision_outbox
  FOR EACH ROW EXECUTE FUNCTION tokencircuit_notify_decision_outbox();
