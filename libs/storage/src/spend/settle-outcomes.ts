import type { ToolCallOutcome } from '@tokencircuit/contracts';
import {
  actualOf,
  coveringLines,
  holdsFor,
  tenantSpend,
  type Amounts,
  type CoveringLine,
  type Hold,
  type SpendPolicy,
} from '@tokencircuit/governance';
import type { SqlSession } from '../sql-database.js';
import { lockReservedLines } from './lock-reserved-lines.js';
import { lockSpendLines, type SpendLineRef } from './spend-lines.js';
import { chargeUnreserved, settleReservation, type StoredHold } from './spend-reservations.js';

export const spendLineRefOf = (c: CoveringLine): SpendLineRef => ({
  key: c.key,
  budgetId: c.budget.id,
  subject: c.subject,
  window: c.position.window,
  meter: c.budget.meter,
  limit: c.budget.limit,
  carriedFrom: c.position.carriedFrom,
});

export const storedHoldsOf = (covering: readonly CoveringLine[], holds: readonly Hold[]): StoredHold[] =>
  covering.map((c, i) => ({
    b: c.budget.id,
    s: c.subject,
    w: c.position.window,
    m: c.budget.meter,
    a: holds[i]!.amount,
  }));

/** What one settle pass spent, per meter (ledger units), and how many calls it settled or charged. */
export interface SettledTotals {
  readonly calls: number;
  readonly amounts: Amounts;
}

/**
 * Settles the calls of these outcomes (each the call it reports, and its usage if any) in the caller's
 * transaction: a held (or expired) reservation is settled with the actual amounts and its holds released; a call
 * that reserved nothing is charged on the lines that cover it at the outcome's time. Idempotent per call
 * (tenant, run, call id): an outcome delivered twice, or through both doors (POST /v1/events and the projector),
 * is counted once. The lines the chunk's reservations hold are locked first, all at once and in the order
 * lockSpendLines takes them (byte order of budget, subject, window), so a chunk settling many calls never
 * waits on a preflight while holding a line that preflight needs.
 */
export async function settleOutcomes(
  session: SqlSession,
  policy: SpendPolicy,
  outcomes: readonly ToolCallOutcome[],
  now: (outcome: ToolCallOutcome) => string = (o) => o.time,
): Promise<SettledTotals> {
  const byCall = new Map<string, ToolCallOutcome>();
  for (const o of outcomes) {
    const id = JSON.stringify([o.tenant, o.data.call.run, o.data.call.callId]);
    if (!byCall.has(id)) byCall.set(id, o);
  }
  const totals = { calls: 0, amounts: { tokens: 0, cost: 0, calls: 0 } };
  if (byCall.size === 0) return totals;
  const ordered = [...byCall.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, o]) => o);
  await lockReservedLines(
    session,
    [ordered.map((o) => o.tenant), ordered.map((o) => o.data.call.run), ordered.map((o) => o.data.call.callId)],
    ['held', 'expired'],
  );
  for (const outcome of ordered) {
    const spent = await settleOne(session, policy, outcome, now(outcome));
    if (spent === null) continue;
    totals.calls += 1;
    for (const meter of ['tokens', 'cost', 'calls'] as const) totals.amounts[meter] += spent[meter];
  }
  return totals;
}

/** One call's settle; null when it was settled before (or nothing covers a call that reserved nothing). */
async function settleOne(
  session: SqlSession,
  policy: SpendPolicy,
  outcome: ToolCallOutcome,
  nowIso: string,
): Promise<Amounts | null> {
  const { tenant } = outcome;
  const call = outcome.data.call;
  const spend = tenantSpend(policy, tenant);
  const { amounts, costBasis } = actualOf(outcome.data.usage, spend, policy.currency);
  const result = await settleReservation(
    session,
    { tenant, run: call.run, callId: call.callId },
    amounts,
    costBasis,
    nowIso,
  );
  if (result.kind === 'already') return null;
  if (result.kind !== 'none') return amounts;
  const covering = coveringLines(spend, tenant, call, Date.parse(outcome.time));
  if (covering.length === 0) return null;
  await lockSpendLines(session, tenant, covering.map(spendLineRefOf));
  const zero = holdsFor(covering, { tokens: 0, cost: 0, calls: 0 });
  const charged = await chargeUnreserved(
    session,
    {
      tenant,
      run: call.run,
      callId: call.callId,
      agent: call.agent,
      tool: call.tool,
      holds: storedHoldsOf(covering, zero),
      createdAt: nowIso,
      expiresAt: nowIso,
    },
    amounts,
    costBasis,
  );
  return charged ? amounts : null;
}
