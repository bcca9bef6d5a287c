-- A decision_outbox row whose decision throws, or whose records the database refuses, is parked: it keeps
-- its last_error, is never claimed again and no longer holds up the rows behind it. Operators find them with
-- SELECT id, tenant, key_id, last_error, parked_at FROM decision_outbox WHERE parked_at IS NOT NULL.
ALTER TABLE "decision_outbox" ADD COLUMN "parked_at" timestamp with time zone;
--> statement-breakpoint
DROP INDEX "decision_outbox_pending_idx";
--> statement-breakpoint
CREATE INDEX "decision_outbox_pending_idx" ON "decision_outbox" USING btree ("created_at","id") WHERE "decision_outbox"."published_at" is null AND "decision_outbox"."parked_at" is null;
--> statement-breakpoint
CREATE INDEX "decision_outbox_parked_idx" ON "decision_outbox" USING btree ("parked_at") WHERE "decision_outbox"."parked_at" is not null;
