import type { CandidateSelection, FailureState } from '@tokencircuit/governance';
import { queryPreparedIfAble, type SqlSession } from '../sql-database.js';
import { stateKeyColumns, stateOfRow, type StateKeyColumns } from './state-document.js';

/**
 * The preflight read: the states at the core's candidate selection (preflightSelection: run keys of the
 * call's run and tool, fleet keys of its principal and resource id), served by the (tenant, run, tool_name)
 * and (tenant, principal, resource_id) indexes. With `resolved: 'effect_applied'` resolved keys are left out — a
 * long run accumulates many — except a write confirmed applied or re-sent once after an operator found it absent
 * (the core's guardsIntent), whose repetition would duplicate the side effect.
 * test/storage/candidate-selection.int.spec.ts proves it returns exactly what the core's isSelected keeps.
 *
 * A principal's fleet keys of one resource are named in two arms, the resource id or none, so each is an index
 * condition on all three columns (test/storage/select-candidate-states.int.spec.ts): `IS NOT DISTINCT FROM` is no
 * index condition, and read every fleet key of the principal to keep one. The tenant predicate serves the index;
 * isolation does not rest on it: the query runs as the audit role with the tenant setting, under row-level security
 * (withTenant).
 */
export const SELECT_CANDIDATE_STATES_SQL = `SELECT state, ${stateKeyColumns()} FROM failure_state
  WHERE tenant = $1 AND ($6 = 'all' OR status <> 'resolved' OR state->>'finding' IN ('effect_applied', 'effect_resent'))
    AND ((scope = 'run' AND run = $2 AND tool_name = $3)
      OR (scope = 'fleet' AND principal = $4 AND resource_id = $5)
      OR (scope = 'fleet' AND principal = $4 AND $5::text IS NULL AND resource_id IS NULL)
      OR key_id = $7)`;

/** Prepared once per connection under this name (node-postgres), then only bound and executed. */
export const SELECT_CANDIDATE_STATES_STATEMENT = 'tc_api_preflight_candidates_v5';

/** The failure states at `selection` (a preflight's: preflightSelection); run it in a session under withTenant. */
export async function selectCandidateStates(
  session: SqlSession,
  selection: CandidateSelection,
): Promise<FailureState[]> {
  const { tenant, runKeys, fleetKeys, keyId, resolved } = selection;
  const { rows } = await queryPreparedIfAble<{ state: unknown } & StateKeyColumns>(
    session,
    SELECT_CANDIDATE_STATES_STATEMENT,
    SELECT_CANDIDATE_STATES_SQL,
    [
      tenant,
      runKeys?.run ?? null,
      runKeys?.tool ?? null,
      fleetKeys?.principal ?? null,
      fleetKeys?.resourceId ?? null,
      resolved,
      keyId,
    ],
  );
  return rows.map((row) => stateOfRow(row.state, row));
}
