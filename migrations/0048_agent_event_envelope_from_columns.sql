-- The event row without its envelope twice (issue 33). A stored CloudEvent begins with specversion, id, source,
-- type, time, datacontenttype, tenantid and runid: ≈ 205 of its ≈ 840 bytes, which the row's columns already
-- hold. The projector now stores only what follows them (cloud_event_tail: traceparent, data) and the type's
-- version; tokencircuit_cloud_event(row) rebuilds the whole text from the columns, character for character the
-- text the projector would have stored, so the events digest of the audit anchors, replay's pages, the conflict
-- check and every other reader see the same bytes. The projector cuts a row only where it has compared the
-- rebuilt prefix with the text (envelopeCut in libs/storage); any other row keeps its whole text in cloud_event.
--
-- Additive: nothing stored is rewritten (rows before it keep cloud_event, the function returns it) and a writer
-- of an older build keeps inserting whole rows. Readers go through tokencircuit_cloud_event, never the column,
-- which is null for a cut row: deploy every service that reads agent_events (API, decision service, notifier,
-- CLI) before the projector that cuts rows (docs/operations.md).
ALTER TABLE "agent_events" ALTER COLUMN "cloud_event" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "agent_events" ADD COLUMN IF NOT EXISTS "type_version" text;
--> statement-breakpoint
ALTER TABLE "agent_events" ADD COLUMN IF NOT EXISTS "cloud_event_tail" text;
--> statement-breakpoint
ALTER TABLE "agent_events" DROP CONSTRAINT IF EXISTS "agent_events_whole_or_cut";
--> statement-breakpoint
-- NOT VALID, then validated: the scan of the rows already stored runs under a lock that lets the projector insert.
ALTER TABLE "agent_events" ADD CONSTRAINT "agent_events_whole_or_cut"
  CHECK (("cloud_event" IS NULL) = ("cloud_event_tail" IS NOT NULL) AND ("cloud_event_tail" IS NULL) = ("type_version" IS NULL))
  NOT VALID;
--> statement-breakpoint
ALTER TABLE "agent_events" VALIDATE CONSTRAINT "agent_events_whole_or_cut";
--> statement-breakpoint
-- Only built-in functions and operators in the body (pg_catalog is searched first whatever the search_path), so
-- it reads the same from a session pointed at another schema (replay), and stays inlinable (no SET clause).
CREATE OR REPLACE FUNCTION tokencircuit_cloud_event(e agent_events) RETURNS json
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$
    SELECT coalesce(e.cloud_event, (
      '{"specversion":"1.0","id":"' || e.id || '","source":"' || e.source
      || '","type":"dev.tokencircuit.' || e.type || '.' || e.type_version
      || '","time":"' || to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      || '","datacontenttype":"application/json","tenantid":"' || e.tenant || '"'
      || CASE WHEN e.run IS NULL THEN '' ELSE ',"runid":"' || e.run || '"' END
      || e.cloud_event_tail)::json)
  $$;
