-- Decisions by delta (issue 33). Since 0039 a key's latest transition in a projector transaction refers to the
-- failure_state row the same statement writes; the transitions before it kept a whole copy of their state
-- (~1.7 kB, 62 % of the outbox rows and most of its WAL). Such a row now carries what its state changes
-- against that latest one instead (state_delta: {"set": {field: value, …}, "unset": [field, …]}, ~0.45 kB on
-- the default trace) and names it (base_version); the latest transition's row says from which version on
-- rows depend on it (dependents_from), so its state stays readable until every one of them is published.
--
-- The relay reads coalesce(state_snapshot, the state at coalesce(base_version, state_version) from
-- failure_state or outbox_states) and lays state_delta over it. The projector keeps a version in
-- outbox_states while its referring row or any row in [dependents_from, version) is unpublished; the relay
-- drops the kept version once none of them is. Ids and everything replay compares are unchanged.
--
-- Nothing stored is rewritten (three nullable columns, no table rewrite): existing rows keep their copies or
-- references and are decided as before. Deploy the decision service before the projector: a relay of an
-- older build reads a delta row as a reference to a state that is not there and parks it.
ALTER TABLE "decision_outbox" ADD COLUMN IF NOT EXISTS "base_version" integer;
--> statement-breakpoint
ALTER TABLE "decision_outbox" ADD COLUMN IF NOT EXISTS "state_delta" json;
--> statement-breakpoint
ALTER TABLE "decision_outbox" ADD COLUMN IF NOT EXISTS "dependents_from" integer;
--> statement-breakpoint
ALTER TABLE "decision_outbox" DROP CONSTRAINT IF EXISTS "decision_outbox_delta_has_base";
--> statement-breakpoint
ALTER TABLE "decision_outbox" ADD CONSTRAINT "decision_outbox_delta_has_base"
  CHECK ("state_delta" IS NULL OR ("base_version" IS NOT NULL AND "state_snapshot" IS NULL));
