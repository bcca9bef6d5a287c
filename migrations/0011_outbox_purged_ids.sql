-- Ids of outbox rows the decision service's retention purge deleted (see OutboxRetention): replay
-- verification counts them as live, so purging does not read as lost decisions.
CREATE TABLE "decision_outbox_purged" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant" text NOT NULL,
	"purged_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
GRANT SELECT, INSERT ON decision_outbox_purged TO tokencircuit_writer;
