-- The outbox's claim order as a number (issue 33). The relay claims pending rows oldest first; since 0009 that
-- order was (created_at, id), and the partial index serving it carried the ≈ 95-character text id in every entry:
-- ≈ 110 bytes of B-tree per outbox row, ≈ 156 bytes of WAL per event on the default trace (leaf inserts and the
-- splits of a text-keyed tree), written by the projector on its hot path. A row now takes a number from a sequence
-- when it is inserted (claim_order) and the pending index holds only that number: ≈ 16 bytes an entry.
--
-- The order is the one a row's insert took its number in, which is how the rows of one projector statement were
-- already ordered among themselves; between two projector transactions in flight it follows their inserts rather
-- than their starts (created_at), a difference of milliseconds that no guarantee depends on: every pending row is
-- claimed, each exactly once, whatever the order. created_at stays (the relay's wait figures, the retention).
--
-- Existing rows are numbered in their old claim order, so pending rows are claimed as before. Nothing else moves.
ALTER TABLE "decision_outbox" ADD COLUMN IF NOT EXISTS "claim_order" bigint;
--> statement-breakpoint
CREATE SEQUENCE IF NOT EXISTS "decision_outbox_claim_order_seq" AS bigint OWNED BY "decision_outbox"."claim_order";
--> statement-breakpoint
UPDATE "decision_outbox" o SET "claim_order" = n.ord
  FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS ord FROM "decision_outbox" WHERE "claim_order" IS NULL) n
 WHERE o.id = n.id;
--> statement-breakpoint
SELECT setval('decision_outbox_claim_order_seq', GREATEST((SELECT max("claim_order") FROM "decision_outbox"), 1),
              (SELECT max("claim_order") FROM "decision_outbox") IS NOT NULL);
--> statement-breakpoint
ALTER TABLE "decision_outbox" ALTER COLUMN "claim_order" SET DEFAULT nextval('decision_outbox_claim_order_seq');
--> statement-breakpoint
ALTER TABLE "decision_outbox" ALTER COLUMN "claim_order" SET NOT NULL;
--> statement-breakpoint
GRANT USAGE ON SEQUENCE decision_outbox_claim_order_seq TO tokencircuit_writer;
--> statement-breakpoint
DROP INDEX IF EXISTS "decision_outbox_pending_idx";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "decision_outbox_pending_idx" ON "decision_outbox" USING btree ("claim_order")
  WHERE "published_at" IS NULL AND "parked_at" IS NULL;
