import type { SqlSession } from '../sql-database.js';
import type { SpendByToolRecord, SpendLineRecord } from './spend-records.js';

/**
 * The tenant's ledger lines, fullest first (committed share of the limit), optionally of one subject (a run,
 * an agent, …). Run it under withTenant: row-level security keeps other tenants' rows out.
 */
export async function readSpendLines(
  session: SqlSession,
  subject: string | null,
  limit: number,
): Promise<SpendLineRecord[]> {
  const { rows } = await session.query<{
    budget_id: string;
    subject: string;
    window_start: string;
    meter: string;
    limit_amount: string;
    spent: string;
    reserved: string;
    updated_at: Date | string;
  }>(
    `SELECT budget_id, subject, window_start, meter, limit_amount, spent, reserved, updated_at FROM spend_lines
      WHERE ($1::text IS NULL OR subject = $1)
      ORDER BY (spent + reserved)::float8 / limit_amount DESC, updated_at DESC LIMIT $2`,
    [subject, limit],
  );
  return rows.map((r) => ({
    budgetId: r.budget_id,
    subject: r.subject,
    window: r.window_start,
    meter: r.meter,
    limit: Number(r.limit_amount),
    spent: Number(r.spent),
    reserved: Number(r.reserved),
    updatedAt: new Date(r.updated_at).toISOString(),
  }));
}

/** Settled usage per agent and tool since `since`, costliest first. */
export async function readSpendByTool(session: SqlSession, since: string, limit: number): Promise<SpendByToolRecord[]> {
  const { rows } = await session.query<{ agent: string; tool: string; calls: string; tokens: string; cost: string }>(
    `SELECT agent, tool, sum((actual->>'calls')::bigint) AS calls, sum((actual->>'tokens')::bigint) AS tokens,
            sum((actual->>'cost')::bigint) AS cost
       FROM spend_reservations
      WHERE state IN ('settled', 'unreserved') AND finished_at >= $1
      GROUP BY agent, tool ORDER BY cost DESC, tokens DESC LIMIT $2`,
    [since, limit],
  );
  return rows.map((r) => ({
    agent: r.agent,
    tool: r.tool,
    calls: Number(r.calls),
    tokens: Number(r.tokens),
    cost: Number(r.cost),
  }));
}

/**
 * The tool's recent usage in this tenant: the mean of what its last `sampleSize` settled calls since `since`
 * reported (ledger units), for an estimate when a call declares none (estimateWithHistory). Run it under
 * withTenant (the API) or as the writer; index spend_reservations_recent_by_tool_idx (migration 0040).
 */
export async function readRecentUsage(
  session: SqlSession,
  tenant: string,
  tool: string,
  since: string,
  sampleSize: number,
): Promise<{ samples: number; mean: { tokens: number; cost: number; calls: number } }> {
  const { rows } = await session.query<{ n: string; tokens: string | null; cost: string | null; calls: string | null }>(
    `SELECT count(*) AS n, avg(tokens) AS tokens, avg(cost) AS cost, avg(calls) AS calls FROM (
       SELECT (actual->>'tokens')::bigint AS tokens, (actual->>'cost')::bigint AS cost, (actual->>'calls')::bigint AS calls
         FROM spend_reservations
        WHERE tenant = $1 AND tool = $2 AND state IN ('settled', 'unreserved') AND finished_at >= $3
        ORDER BY finished_at DESC LIMIT $4) recent`,
    [tenant, tool, since, sampleSize],
  );
  const r = rows[0]!;
  return {
    samples: Number(r.n),
    mean: { tokens: Number(r.tokens ?? 0), cost: Number(r.cost ?? 0), calls: Number(r.calls ?? 0) },
  };
}
