-- Budget crossings become interventions (issue 31): the API appends a budget's intervention (to its tenant's
-- hash chain) and its episode step in the transaction that settles the usage or refuses the preflight. It does
-- so as its own role with the tenant set, under the tenant_isolation policies both tables already have: it can
-- append and read only the tenant it writes for. Append-only stays: no UPDATE or DELETE is granted.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokencircuit_api') THEN
    GRANT SELECT, INSERT ON interventions, episode_events TO tokencircuit_api;
    GRANT USAGE ON SEQUENCE interventions_seq_seq, episode_events_seq_seq TO tokencircuit_api;
  END IF;
END
$$;
