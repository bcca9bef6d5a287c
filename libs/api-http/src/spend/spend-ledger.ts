import type { ToolCall, ToolCallOutcome } from '@tokencircuit/contracts';
import {
  actualOf,
  budgetVerdict,
  coveringLines,
  estimateFor,
  holdsFor,
  reserve,
  tenantSpend,
  type Amounts,
  type BudgetVerdict,
  type CoveringLine,
  type Hold,
  type SpendPolicy,
} from '@tokencircuit/governance';
import {
  chargeUnreserved,
  expireReservations,
  lockSpendLines,
  recordReservation,
  settleReservation,
  type SpendLineRef,
  type StoredHold,
} from '@tokencircuit/storage';
import type { ApiDatabase } from '../api-database.port.js';
import type { SpendMetrics } from './spend-metrics.js';

const refOf = (c: CoveringLine): SpendLineRef => ({
  key: c.key,
  budgetId: c.budget.id,
  subject: c.subject,
  window: c.position.window,
  meter: c.budget.meter,
  limit: c.budget.limit,
  carriedFrom: c.position.carriedFrom,
});

const stored = (covering: readonly CoveringLine[], holds: readonly Hold[]): StoredHold[] =>
  covering.map((c, i) => ({
    b: c.budget.id,
    s: c.subject,
    w: c.position.window,
    m: c.budget.meter,
    a: holds[i]!.amount,
  }));

/**
 * The spend ledger's adapter: the core names the covering lines, the estimate and the verdict; this moves the
 * rows. A reservation locks its lines (Postgres row locks, one order for every caller), so concurrent
 * preflights of one budget are judged one after another against what the others already reserved.
 */
export class SpendLedger {
  constructor(
    private readonly db: ApiDatabase,
    private readonly policy: SpendPolicy,
    private readonly metrics: SpendMetrics,
  ) {}

  /** Reserves the call's estimate on every budget that covers it; null when none does. */
  async reserve(tenant: string, call: ToolCall, declared: Partial<Amounts>, now: Date): Promise<BudgetVerdict | null> {
    const covering = coveringLines(tenantSpend(this.policy, tenant), tenant, call, now.getTime());
    if (covering.length === 0) return null;
    const estimate = estimateFor(this.policy, call.tool, declared);
    const holds = holdsFor(covering, estimate);
    const refs = covering.map(refOf);
    const nowIso = now.toISOString();
    const attempt = () =>
      this.db.spend.write(tenant, async (session) => {
        const lines = await lockSpendLines(session, tenant, refs);
        const outcome = reserve(lines, holds);
        if (outcome.kind === 'reserved') {
          const claimed = await recordReservation(session, {
            tenant,
            run: call.run,
            callId: call.callId,
            agent: call.agent,
            tool: call.tool,
            holds: stored(covering, holds),
            createdAt: nowIso,
            expiresAt: new Date(now.getTime() + this.policy.reservationTtlMs).toISOString(),
          });
          // The same call asked twice: its first reservation stands, nothing is added.
          if (!claimed)
            return budgetVerdict(covering, lines, { kind: 'reserved', lines }, estimate, this.policy.currency);
        }
        return budgetVerdict(covering, lines, outcome, estimate, this.policy.currency);
      });
    let verdict = await attempt();
    if (verdict.level === 'block') {
      // Refused: release what calls that never reported back still hold, then judge once more.
      const released = await this.db.spend.write(tenant, (session) => expireReservations(session, tenant, nowIso));
      if (released > 0) {
        this.metrics.expired.inc(released);
        verdict = await attempt();
      }
    }
    this.metrics.verdicts.inc({ level: verdict.level });
    for (const line of verdict.lines) this.metrics.usedRatio.set({ budget: line.budget_id }, line.used_ratio);
    return verdict;
  }

  /**
   * Settles a call's reservation with what its outcome reported (one call, and its usage if any), releasing
   * the rest; a call that reserved nothing is charged on the lines that cover it now. Idempotent per call.
   */
  async settle(outcome: ToolCallOutcome, now: Date): Promise<void> {
    const { tenant } = outcome;
    const call = outcome.data.call;
    const spend = tenantSpend(this.policy, tenant);
    const { amounts, costBasis } = actualOf(outcome.data.usage, spend, this.policy.currency);
    const nowIso = now.toISOString();
    await this.db.spend.write(tenant, async (session) => {
      const result = await settleReservation(
        session,
        { tenant, run: call.run, callId: call.callId },
        amounts,
        costBasis,
        nowIso,
      );
      if (result.kind !== 'none') return;
      const covering = coveringLines(spend, tenant, call, Date.parse(outcome.time));
      if (covering.length === 0) return;
      await lockSpendLines(session, tenant, covering.map(refOf));
      const zero = holdsFor(covering, { tokens: 0, cost: 0, calls: 0 });
      await chargeUnreserved(
        session,
        {
          tenant,
          run: call.run,
          callId: call.callId,
          agent: call.agent,
          tool: call.tool,
          holds: stored(covering, zero),
          createdAt: nowIso,
          expiresAt: nowIso,
        },
        amounts,
        costBasis,
      );
    });
    for (const meter of ['tokens', 'cost', 'calls'] as const) this.metrics.settled.inc({ meter }, amounts[meter]);
  }
}
