import type { SqlSession } from '../sql-database.js';
import type { SpendByFailureRecord } from './spend-records.js';

/**
 * Spend caused by each failure class and key since `since`, costliest first: settled spend lines of calls joined
 * with the failure state that counted them (the key's `seenCallIds`: its current episode's calls, at most 64 per
 * key; a run key matches its run's calls, a fleet key the tool's calls of any run). Read under the tenant's
 * row-level security (the audit role), like the rest of the spend view.
 */
export async function readSpendByFailure(
  session: SqlSession,
  since: string,
  limit: number,
): Promise<SpendByFailureRecord[]> {
  const { rows } = await session.query<{
    failure_class: string;
    key_id: string;
    tool: string;
    status: string;
    calls: string;
    tokens: string;
    cost: string;
  }>(
    `SELECT f.error_class AS failure_class, f.key_id, f.tool_name AS tool, f.status,
            sum((r.actual->>'calls')::bigint) AS calls, sum((r.actual->>'tokens')::bigint) AS tokens,
            sum((r.actual->>'cost')::bigint) AS cost
       FROM failure_state f
       JOIN spend_reservations r
         ON r.tenant = f.tenant AND r.tool = f.tool_name
        AND (f.scope = 'fleet' OR r.run = f.run)
        AND (f.state -> 'seenCallIds')::jsonb ? r.call_id
      WHERE r.state IN ('settled', 'unreserved') AND r.finished_at >= $1
      GROUP BY f.error_class, f.key_id, f.tool_name, f.status
      ORDER BY cost DESC, tokens DESC, f.key_id LIMIT $2`,
    [since, limit],
  );
  return rows.map((r) => ({
    failureClass: r.failure_class,
    keyId: r.key_id,
    tool: r.tool,
    status: r.status,
    calls: Number(r.calls),
    tokens: Number(r.tokens),
    cost: Number(r.cost),
  }));
}
