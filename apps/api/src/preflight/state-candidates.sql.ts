/**
 * The preflight read: run keys of this run and tool plus fleet keys of this principal, served by the
 * (tenant, run, tool_name) and (tenant, principal, …) indexes. Resolved keys are left out because the
 * core's preflight() ignores them (it accepts any superset of the matching unresolved states), and a
 * long run accumulates many. The tenant predicate is the authenticated key's tenant, bound as a
 * parameter; preflight skips the RLS transaction to stay at one round trip (see docs/audit.md).
 */
export const STATE_CANDIDATES_SQL = `SELECT state FROM failure_state
  WHERE tenant = $1 AND status <> 'resolved'
    AND ((scope = 'run' AND run = $2 AND tool_name = $3) OR (scope = 'fleet' AND principal = $4))`;

/** Prepared once per connection under this name, then only bound and executed. */
export const STATE_CANDIDATES_STATEMENT = 'tc_api_preflight_candidates';
