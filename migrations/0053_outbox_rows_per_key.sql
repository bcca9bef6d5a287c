-- One outbox row per key and projector transaction (issue 33). Until now every transition that needs a decision
-- was a row of its own: the key's latest in a transaction referring to the state failure_state holds (0039), each
-- earlier one a row carrying a delta against it (0047). On the default trace that is 0.65 rows per event, and each
-- earlier transition's row paid ≈ 260 bytes of heap beside its ≈ 400-byte delta (the ≈ 90-character id and key id,
-- the tenant, the timestamps, the tuple header) and an entry in the primary key and the pending index: most of what
-- the outbox costs to write.
--
-- A key's earlier transitions now travel in the row of its latest one, in `earlier`: a JSON array of
-- [version, delta] pairs in version order, each delta against the row's own state (applyStateDelta). Their ids stay
-- "<key id>@v<version>": the interventions, episode steps, replay's digest and the purge's kept ids still name every
-- transition, and the relay decides them all, in version order, when it claims the row. The row is what is claimed,
-- published and parked: a decision that fails parks the key's transitions of that transaction together.
--
-- Rows written before stay as they are (a delta row with its base_version, a referring row with dependents_from)
-- and are read as before. Upgrade order: the decision service and the CLI before the projector, since an older
-- relay would read a new row's own transition and not its earlier ones.
ALTER TABLE "decision_outbox" ADD COLUMN IF NOT EXISTS "earlier" json;
--> statement-breakpoint
ALTER TABLE "decision_outbox" DROP CONSTRAINT IF EXISTS "decision_outbox_earlier_on_reference";
--> statement-breakpoint
ALTER TABLE "decision_outbox" ADD CONSTRAINT "decision_outbox_earlier_on_reference"
  CHECK ("earlier" IS NULL OR ("state_snapshot" IS NULL AND "state_delta" IS NULL AND json_typeof("earlier") = 'array'));
--> statement-breakpoint
-- Every transition the outbox holds, one line each, as a row per transition read before 0053: its id, key and
-- version, the row that carries it (row_id, the row's own id for its own transition) and that row's state. For
-- audit queries and the specs; security_invoker, so the reader's row-level security applies.
CREATE OR REPLACE VIEW "decision_outbox_transitions" WITH (security_invoker = true) AS
  SELECT o.id, o.tenant, o.key_id, o.state_version, o.id AS row_id, o.created_at, o.published_at, o.parked_at
    FROM "decision_outbox" o
  UNION ALL
  SELECT o.key_id || '@v' || (e ->> 0), o.tenant, o.key_id,
         -- A hand-edited entry that is no version reads as null here rather than failing every query of the view.
         CASE WHEN (e ->> 0) ~ '^[0-9]{1,9}$' THEN (e ->> 0)::int END, o.id, o.created_at, o.published_at, o.parked_at
    FROM "decision_outbox" o, json_array_elements(o.earlier) AS e;
--> statement-breakpoint
GRANT SELECT ON "decision_outbox_transitions" TO tokencircuit_audit, tokencircuit_writer;
