-- An agent event is identified within its tenant: two tenants may use the same event id (CloudEvents
-- only makes source + id unique, and every source is inside one tenant), and one tenant's event must
-- never make another's a "duplicate". Existing rows keep their place: unique on id alone, they are
-- unique on (tenant, id) too.
ALTER TABLE "agent_events" DROP CONSTRAINT "agent_events_pkey";
--> statement-breakpoint
ALTER TABLE "agent_events" ADD CONSTRAINT "agent_events_pkey" PRIMARY KEY ("tenant", "id");
