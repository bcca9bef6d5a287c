-- The notifier reads lifecycle steps from episode_events (its embedded-style source, and the 'latest' start
-- position): one reader and one checkpoint for every tenant, with no tenant setting, as for its deliveries
-- (notifier_all_tenants, 0027). 0027 granted it SELECT but no policy, so under FORCE RLS it saw no step and
-- paged nobody. This policy is read-only (FOR SELECT) and its own: no other role's view changes, and the
-- notifier still has no INSERT, UPDATE or DELETE on the audit trail. Skipped, like 0027's grants, when the
-- role could not be created.
DROP POLICY IF EXISTS notifier_reads_all_tenants ON episode_events;
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokencircuit_notifier') THEN
    GRANT SELECT ON episode_events TO tokencircuit_notifier;
    CREATE POLICY notifier_reads_all_tenants ON episode_events FOR SELECT TO tokencircuit_notifier USING (true);
  END IF;
END
$$;
