import type { FailureState } from '@tokencircuit/governance';
import { queryPreparedIfAble, type SqlSession } from '../sql-database.js';

/** The coordinates of one tool call that pick the failure states its preflight must judge it by. */
export interface CandidateCall {
  readonly tenant: string;
  readonly run: string;
  readonly toolName: string;
  /** A call without a principal has no fleet keys to match. */
  readonly principal: string | null;
}

/**
 * The preflight read: run keys of this run and tool plus fleet keys of this principal, served by the
 * (tenant, run, tool_name) and (tenant, principal, …) indexes. Resolved keys are left out — a long run
 * accumulates many — except one kind the core's preflight() still judges by: a write that read-after-write
 * confirmed applied, whose repetition would duplicate the side effect. The tenant predicate is the
 * authenticated key's tenant, bound as a parameter, and serves the index; isolation does not rest on it:
 * the query runs as the audit role with the tenant setting, under row-level security (withTenant).
 */
export const SELECT_CANDIDATE_STATES_SQL = `SELECT state FROM failure_state
  WHERE tenant = $1 AND (status <> 'resolved' OR state->>'finding' = 'effect_applied')
    AND ((scope = 'run' AND run = $2 AND tool_name = $3) OR (scope = 'fleet' AND principal = $4))`;

/** Prepared once per connection under this name (node-postgres), then only bound and executed. */
export const SELECT_CANDIDATE_STATES_STATEMENT = 'tc_api_preflight_candidates';

/** The failure states a preflight of `call` must consider; run it in a session under withTenant. */
export async function selectCandidateStates(session: SqlSession, call: CandidateCall): Promise<FailureState[]> {
  const { rows } = await queryPreparedIfAble<{ state: FailureState }>(
    session,
    SELECT_CANDIDATE_STATES_STATEMENT,
    SELECT_CANDIDATE_STATES_SQL,
    [call.tenant, call.run, call.toolName, call.principal],
  );
  return rows.map((row) => row.state);
}
