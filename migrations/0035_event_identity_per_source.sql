-- CloudEvents makes an event's id unique within its source, not within a tenant: two agents of one tenant
-- may use the same id for different events, and 0014's (tenant, id) key dropped the second as a
-- "duplicate". The key becomes (tenant, id, source), in that order so lookups by (tenant, id) (causing
-- event ids, the audit's event reads) still use its index and no second index is written per event.
-- source is the stored CloudEvent's own (/tenants/<t>/agents/<agent> or /tenants/<t>/operators/<by>,
-- sourceOfEvent in event-coordinates.ts); adding it as a generated column fills the stored rows from their
-- bodies and rewrites the table without firing the append-only triggers of 0029 (no row is updated); a body
-- without one (no CloudEvent the projector writes) has the empty source. Existing rows keep their
-- place: unique on (tenant, id), they are unique on (tenant, id, source) too.
ALTER TABLE "agent_events" ADD COLUMN "source" text GENERATED ALWAYS AS (COALESCE("cloud_event" ->> 'source', '')) STORED NOT NULL;
--> statement-breakpoint
-- Generated for the rows already stored, then written by the projector with each row (agentEventRows): a
-- generated column would parse every body once more on the hot path (json ->> reads the text). DROP
-- EXPRESSION keeps the values and updates no row.
ALTER TABLE "agent_events" ALTER COLUMN "source" DROP EXPRESSION;
--> statement-breakpoint
ALTER TABLE "agent_events" ALTER COLUMN "source" SET DEFAULT '';
--> statement-breakpoint
ALTER TABLE "agent_events" DROP CONSTRAINT "agent_events_pkey";
--> statement-breakpoint
ALTER TABLE "agent_events" ADD CONSTRAINT "agent_events_pkey" PRIMARY KEY ("tenant", "id", "source");
--> statement-breakpoint
-- What "the same body" means for a known (tenant, id, source): the stored CloudEvent without its trace
-- context (a producer's retry may carry a new one), compared as jsonb (member order and spacing aside).
-- Its digest is what a conflict names: sha256 of that jsonb's text form, hex. One definition for the
-- projector's insert and the API's ingest check.
CREATE OR REPLACE FUNCTION tokencircuit_event_body(cloud_event json) RETURNS jsonb
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT cloud_event::jsonb - 'traceparent' $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tokencircuit_event_digest(cloud_event json) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT 'sha256:' || encode(sha256(convert_to(tokencircuit_event_body(cloud_event)::text, 'UTF8')), 'hex') $$;
