-- A page names what it is about: the notifier reads the causing call's arguments (which refund, which
-- customer) from the stored causing events, which were redacted at ingest. Without SELECT on agent_events
-- the connected notifier paged without them. Unlike its episode-step policy (0031) this grant adds no
-- policy of its own: agent_events' tenant_isolation policy applies, so the notifier sees one tenant's
-- events only inside a transaction that set tokencircuit.tenant to the tenant of the step it delivers
-- (readTenantEventsById), and nothing without it. Read-only: 0029 already revoked UPDATE/DELETE/TRUNCATE
-- from every role, and no INSERT is granted. Skipped, like 0027's grants, when the role could not be created.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokencircuit_notifier') THEN
    GRANT SELECT ON agent_events TO tokencircuit_notifier;
  END IF;
END
$$;
