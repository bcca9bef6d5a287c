/**
 * The preflight read: run keys of this run and tool plus fleet keys of this principal, served by the
 * (tenant, run, tool_name) and (tenant, principal, …) indexes. Resolved keys are left out — a long run
 * accumulates many — except one kind the core's preflight() still judges by: a write that read-after-write
 * confirmed applied, whose repetition would duplicate the side effect. The tenant predicate is the
 * authenticated key's tenant, bound as a parameter, and serves the index; isolation does not rest on it:
 * the query runs as the audit role with the tenant setting, under row-level security (withTenant).
 */
export const STATE_CANDIDATES_SQL = `SELECT state FROM failure_state
  WHERE tenant = $1 AND (status <> 'resolved' OR state->>'finding' = 'effect_applied')
    AND ((scope = 'run' AND run = $2 AND tool_name = $3) OR (scope = 'fleet' AND principal = $4))`;

/** Prepared once per connection under this name, then only bound and executed. */
export const STATE_CANDIDATES_STATEMENT = 'tc_api_preflight_candidates';
