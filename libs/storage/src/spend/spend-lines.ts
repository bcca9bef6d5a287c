import type { LedgerLine, Meter } from '@tokencircuit/governance';
import type { SqlSession } from '../sql-database.js';

/** One ledger row a call is held against: what the core's coveringLines named, with the policy's limit. */
export interface SpendLineRef {
  readonly key: string;
  readonly budgetId: string;
  readonly subject: string;
  readonly window: string;
  readonly meter: Meter;
  readonly limit: number;
  /** A rolling window's first hour bucket (its earlier buckets are carried); null otherwise. */
  readonly carriedFrom: string | null;
}

/** The one order every caller locks spend lines in (budget, subject, window), so none deadlocks another. */
export const compareLineRows = (a: SpendLineRef, b: SpendLineRef): number =>
  a.budgetId < b.budgetId
    ? -1
    : a.budgetId > b.budgetId
      ? 1
      : a.subject < b.subject
        ? -1
        : a.subject > b.subject
          ? 1
          : a.window < b.window
            ? -1
            : a.window > b.window
              ? 1
              : 0;

/**
 * Creates the rows that do not exist yet and locks all of them, in one order for every caller (so concurrent
 * preflights queue on a row instead of deadlocking), refreshing each limit from the policy. Run it inside a
 * transaction with the tenant set; the locks hold until it ends. Returns the lines in `refs` order.
 */
export async function lockSpendLines(
  session: SqlSession,
  tenant: string,
  refs: readonly SpendLineRef[],
): Promise<LedgerLine[]> {
  const sorted = [...refs].sort(compareLineRows);
  const { rows } = await session.query<{
    budget_id: string;
    subject: string;
    window_start: string;
    spent: string;
    reserved: string;
  }>(
    `INSERT INTO spend_lines AS l (tenant, budget_id, subject, window_start, meter, limit_amount)
     SELECT $1, v.b, v.s, v.w, v.m, v.lim
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[]) WITH ORDINALITY AS v(b, s, w, m, lim, n)
      ORDER BY v.n
     ON CONFLICT (tenant, budget_id, subject, window_start)
       DO UPDATE SET limit_amount = EXCLUDED.limit_amount, meter = EXCLUDED.meter
     RETURNING l.budget_id, l.subject, l.window_start, l.spent, l.reserved`,
    [
      tenant,
      sorted.map((r) => r.budgetId),
      sorted.map((r) => r.subject),
      sorted.map((r) => r.window),
      sorted.map((r) => r.meter),
      sorted.map((r) => r.limit),
    ],
  );
  const carried = await carriedSpend(
    session,
    tenant,
    sorted.filter((r) => r.carriedFrom !== null),
  );
  return refs.map((ref) => {
    const row = rows.find(
      (r) => r.budget_id === ref.budgetId && r.subject === ref.subject && r.window_start === ref.window,
    );
    if (row === undefined)
      throw new Error(`spend line ${ref.budgetId}/${ref.subject}/${ref.window} was neither created nor locked`);
    return {
      key: ref.key,
      meter: ref.meter,
      limit: ref.limit,
      spent: Number(row.spent),
      reserved: Number(row.reserved),
      carried: carried.get(ref.key) ?? 0,
    };
  });
}

/** Spend and reservations of a rolling window's earlier hour buckets, per line key. */
async function carriedSpend(
  session: SqlSession,
  tenant: string,
  rolling: readonly SpendLineRef[],
): Promise<Map<string, number>> {
  if (rolling.length === 0) return new Map();
  const { rows } = await session.query<{ n: string; carried: string }>(
    `SELECT v.n, coalesce(sum(l.spent + l.reserved), 0) AS carried
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS v(b, s, f, w, n)
       JOIN spend_lines l ON l.tenant = $1 AND l.budget_id = v.b AND l.subject = v.s AND l.window_start >= v.f AND l.window_start < v.w
      GROUP BY v.n`,
    [
      tenant,
      rolling.map((r) => r.budgetId),
      rolling.map((r) => r.subject),
      rolling.map((r) => r.carriedFrom),
      rolling.map((r) => r.window),
    ],
  );
  return new Map(rows.map((r) => [rolling[Number(r.n) - 1]!.key, Number(r.carried)]));
}
