-- Decisions by reference (issue 33). Every state transition wrote an outbox row carrying a copy of its state
-- (~1.6 kB): for the last transition of a key in a projector transaction that copy is byte for byte the
-- failure_state row written by the same statement. Such a row now refers to that state (state_snapshot
-- NULL: the state is failure_state's row at (key_id, state_version)); the transitions before it in the same
-- transaction, whose states no row holds, keep their copy.
--
-- A referred state stays readable until its row is published: when a later transaction moves failure_state
-- past a version a pending row refers to, that statement first copies the version into outbox_states (an
-- insert into a table nobody else writes: no lock the decision service holds is ever waited for). The relay
-- reads coalesce(state_snapshot, the failure_state row at that version, the outbox_states row), which one
-- snapshot of the database always answers, and deletes the copy when it publishes the row.
--
-- Nothing stored is rewritten: every existing row keeps its snapshot, and an older build writing full rows
-- through a rolling upgrade is still decided as before.
ALTER TABLE "decision_outbox" ALTER COLUMN "state_snapshot" DROP NOT NULL;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "outbox_states" (
  "key_id" text NOT NULL,
  "state_version" integer NOT NULL,
  "tenant" text NOT NULL,
  "state" json NOT NULL,
  "kept_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "outbox_states_pkey" PRIMARY KEY ("key_id", "state_version"),
  CONSTRAINT "outbox_states_tenant_not_empty" CHECK ("tenant" <> '')
) WITH (toast_tuple_target = 8160);
--> statement-breakpoint
GRANT SELECT, INSERT, DELETE ON outbox_states TO tokencircuit_writer;
--> statement-breakpoint
GRANT SELECT ON outbox_states TO tokencircuit_audit;
--> statement-breakpoint
ALTER TABLE outbox_states ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE outbox_states FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON outbox_states
  USING (tenant = current_setting('tokencircuit.tenant', true))
  WITH CHECK (tenant = current_setting('tokencircuit.tenant', true));
--> statement-breakpoint
CREATE POLICY writer_all_tenants ON outbox_states TO tokencircuit_writer USING (true) WITH CHECK (true);
