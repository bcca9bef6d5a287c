import type { FailureState } from '@tokencircuit/governance';
import type { SqlSession } from '../sql-database.js';

/** The coordinates a batch touches: every failure_state row that might match is loaded and locked. */
export interface StateCoordinates {
  readonly runs: ReadonlyArray<readonly [tenant: string, run: string]>;
  readonly principals: ReadonlyArray<readonly [tenant: string, principal: string]>;
  readonly keyIds: readonly string[];
}

/**
 * Every failure_state row of these coordinates (the run's keys, the principal's fleet keys, the named
 * keys), row-locked in key order, by key id.
 */
export async function loadCandidateStates(tx: SqlSession, at: StateCoordinates): Promise<Map<string, FailureState>> {
  // One index-driven branch per kind of coordinate: written as one WHERE with ORs, the planner could
  // only answer it with a sequential scan, so every chunk cost time in proportion to the whole table.
  const { rows } = await tx.query<{ state: FailureState }>(
    `SELECT state FROM failure_state WHERE key_id IN (
       SELECT f.key_id FROM failure_state f
         JOIN unnest($1::text[], $2::text[]) AS r(tenant, run) ON f.tenant = r.tenant AND f.run = r.run
       UNION ALL
       SELECT f.key_id FROM failure_state f
         JOIN unnest($3::text[], $4::text[]) AS p(tenant, principal)
           ON f.scope = 'fleet' AND f.tenant = p.tenant AND f.principal = p.principal
       UNION ALL
       SELECT unnest($5::text[]))
      ORDER BY key_id FOR UPDATE`,
    [
      at.runs.map((r) => r[0]),
      at.runs.map((r) => r[1]),
      at.principals.map((p) => p[0]),
      at.principals.map((p) => p[1]),
      at.keyIds,
    ],
  );
  return new Map(rows.map((r) => [r.state.keyId, r.state]));
}
