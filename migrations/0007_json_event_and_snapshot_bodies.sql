-- Event bodies and outbox snapshots are written once on the projector's hot path and read back whole:
-- json keeps the text as written (validated only) instead of rebuilding a binary tree per row, which
-- cost about a third of each insert. Nothing queries inside them with jsonb-only operators.
ALTER TABLE "agent_events" ALTER COLUMN "cloud_event" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "decision_outbox" ALTER COLUMN "state_snapshot" SET DATA TYPE json;