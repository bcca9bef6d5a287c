-- The audit trail is append-only, enforced by the database itself rather than by convention:
-- row triggers refuse UPDATE and DELETE (naming the row), a statement trigger refuses TRUNCATE
-- (row triggers do not fire for it). Only the table owner can disable these triggers
-- (ALTER TABLE ... DISABLE TRIGGER); anything changed that way breaks the per-tenant hash chain,
-- which verifyChain / tokencircuit_verify_intervention_chain detect.
CREATE OR REPLACE FUNCTION tokencircuit_refuse_intervention_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    RAISE EXCEPTION 'interventions is an append-only audit trail: % of intervention % (seq %) refused', TG_OP, OLD.id, OLD.seq
      USING ERRCODE = 'insufficient_privilege',
            HINT = 'Interventions are never edited or deleted; append a new intervention instead.';
  END IF;
  RAISE EXCEPTION 'interventions is an append-only audit trail: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege',
          HINT = 'Interventions are never edited or deleted; append a new intervention instead.';
END
$$;
--> statement-breakpoint
CREATE TRIGGER interventions_refuse_update
  BEFORE UPDATE ON interventions
  FOR EACH ROW EXECUTE FUNCTION tokencircuit_refuse_intervention_change();
--> statement-breakpoint
CREATE TRIGGER interventions_refuse_delete
  BEFORE DELETE ON interventions
  FOR EACH ROW EXECUTE FUNCTION tokencircuit_refuse_intervention_change();
--> statement-breakpoint
CREATE TRIGGER interventions_refuse_truncate
  BEFORE TRUNCATE ON interventions
  FOR EACH STATEMENT EXECUTE FUNCTION tokencircuit_refuse_intervention_change();
