-- The projector's candidate load asks for a principal's fleet keys of one resource (issue 33). The fleet index was
-- (tenant, principal) only, so each such coordinate read every fleet key of the principal and dropped those of other
-- resources: on a 30,000-event run's table, eight coordinates visited 1,122 rows and 782 buffers for the 56 they
-- kept (1.4 ms), a cost that grows with each principal's keys. Indexed with the resource id, the same coordinates are
-- index conditions on all three columns: 63 buffers, 0.2 ms. The new index replaces the old one; its leading columns
-- and predicate are the same, so every lookup of a principal's fleet keys still uses it.
CREATE INDEX IF NOT EXISTS "failure_state_fleet_principal_resource_idx" ON "failure_state" USING btree ("tenant","principal","resource_id") WHERE "failure_state"."scope" = 'fleet';
--> statement-breakpoint
DROP INDEX IF EXISTS "failure_state_fleet_principal_idx";
