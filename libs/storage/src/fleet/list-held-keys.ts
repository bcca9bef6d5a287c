import type { SqlSession } from '../sql-database.js';
import type { FailureStateRow } from '../tables/failure-state.js';
import type { InterventionRow } from '../tables/interventions.js';

/** An unresolved key whose latest intervention blocks or pages, with that intervention. */
export type HeldKeyRow = Pick<
  FailureStateRow,
  | 'keyId'
  | 'scope'
  | 'status'
  | 'run'
  | 'principal'
  | 'toolName'
  | 'resourceClass'
  | 'resourceId'
  | 'errorClass'
  | 'retryCount'
  | 'budget'
> &
  Pick<InterventionRow, 'level' | 'nextAction'> & {
    /** Whether an operator acknowledged the key's current situation. */
    readonly acknowledged: boolean;
    readonly interventionId: string;
    readonly issuedAt: Date | string;
    /** How many interventions the key has had. */
    readonly interventions: number;
  };

export interface HeldKeys {
  /** Pages first, then the most recently issued; at most `limit`. */
  readonly rows: HeldKeyRow[];
  /** How many keys are held in all. */
  readonly total: number;
}

// The latest intervention per key comes from interventions (tenant, key_id, seq) (migration 0026), one index
// probe per unresolved key.
const HELD_KEYS_SQL = `
SELECT fs.key_id AS "keyId", fs.scope, fs.status, fs.run, fs.principal, fs.tool_name AS "toolName",
       fs.resource_class AS "resourceClass", fs.resource_id AS "resourceId", fs.error_class AS "errorClass",
       fs.retry_count AS "retryCount", fs.budget, (fs.state->>'acknowledgedSituation') IS NOT NULL AS acknowledged,
       l.id AS "interventionId", l.level, l.next_action AS "nextAction", l.issued_at AS "issuedAt",
       l.total::int AS interventions, count(*) OVER ()::int AS "heldTotal"
  FROM failure_state fs
  CROSS JOIN LATERAL (
    SELECT i.id, i.level, i.next_action, i.issued_at, count(*) OVER () AS total
      FROM interventions i
     WHERE i.tenant = fs.tenant AND i.key_id = fs.key_id
     ORDER BY i.seq DESC
     LIMIT 1
  ) l
 WHERE fs.status <> 'resolved' AND l.level IN ('block', 'page')
 ORDER BY (l.level = 'page') DESC, l.issued_at DESC, fs.key_id
 LIMIT $1`;

/** The keys held now (blocked or paged and unresolved) the session sees; run it under withTenant. */
export async function listHeldKeys(session: SqlSession, limit: number): Promise<HeldKeys> {
  const { rows } = await session.query<HeldKeyRow & { heldTotal: number }>(HELD_KEYS_SQL, [limit]);
  return {
    rows: rows.map(({ heldTotal: _total, ...row }) => row),
    total: rows[0]?.heldTotal ?? 0,
  };
}
