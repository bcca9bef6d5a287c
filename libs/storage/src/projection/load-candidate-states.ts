import type { FailureState } from '@tokencircuit/governance';
import type { SqlSession } from '../sql-database.js';

/**
 * The coordinates a batch touches, as the core's candidateSelection names them: every failure_state row
 * that might match is loaded and locked.
 */
export interface StateCoordinates {
  /** Run-scoped keys of a run and tool. */
  readonly runTools: ReadonlyArray<readonly [tenant: string, run: string, tool: string]>;
  /** Fleet-scoped keys of a principal and resource id (null: the keys that name no resource). */
  readonly fleetResources: ReadonlyArray<readonly [tenant: string, principal: string, resourceId: string | null]>;
  readonly keyIds: readonly string[];
}

/**
 * Every failure_state row of these coordinates (a run's keys of one tool, a principal's fleet keys of
 * one resource, the named keys), row-locked in key order, by key id. Exactly the selection, not a
 * coarser prefix: a small chunk would otherwise read every fleet key of each principal it names.
 */
export async function loadCandidateStates(tx: SqlSession, at: StateCoordinates): Promise<Map<string, FailureState>> {
  // One index-driven branch per kind of coordinate: written as one WHERE with ORs, the planner could
  // only answer it with a sequential scan, so every chunk cost time in proportion to the whole table.
  const { rows } = await tx.query<{ state: FailureState }>(
    `SELECT state FROM failure_state WHERE key_id IN (
       SELECT f.key_id FROM failure_state f
         JOIN unnest($1::text[], $2::text[], $3::text[]) AS r(tenant, run, tool)
           ON f.tenant = r.tenant AND f.run = r.run AND f.tool_name = r.tool
       UNION ALL
       SELECT f.key_id FROM failure_state f
         JOIN unnest($4::text[], $5::text[], $6::text[]) AS p(tenant, principal, resource_id)
           ON f.scope = 'fleet' AND f.tenant = p.tenant AND f.principal = p.principal
          AND f.resource_id IS NOT DISTINCT FROM p.resource_id
       UNION ALL
       SELECT unnest($7::text[]))
      ORDER BY key_id FOR UPDATE`,
    [
      at.runTools.map((r) => r[0]),
      at.runTools.map((r) => r[1]),
      at.runTools.map((r) => r[2]),
      at.fleetResources.map((p) => p[0]),
      at.fleetResources.map((p) => p[1]),
      at.fleetResources.map((p) => p[2]),
      at.keyIds,
    ],
  );
  return new Map(rows.map((r) => [r.state.keyId, r.state]));
}
