-- An intervention's DiagnosticArtifact and an episode step's data are 1.5-2 kB of JSON; with their rows'
-- other columns most rows (86 % of interventions, 80 % of episode steps in bench:latency) crossed the
-- default 2 kB toast_tuple_target, so Postgres ran pglz over them on every append of the audit trail and
-- again on every read (audit queries, chain verification, the notifier's claims): 3.8 % of all Postgres
-- CPU at 1,000 events/s. As for failure_state and decision_outbox (0032), rows stay uncompressed and inline
-- up to a page; a larger artifact is still compressed and toasted. The price is disk: ≈ 35 % more per row
-- of these two tables, which a compliance store pays in bytes rather than in CPU on its write path.
ALTER TABLE interventions SET (toast_tuple_target = 8160);
--> statement-breakpoint
ALTER TABLE episode_events SET (toast_tuple_target = 8160);
