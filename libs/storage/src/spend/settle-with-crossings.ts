import type { ToolCallOutcome } from '@tokencircuit/contracts';
import {
  budgetCrossings,
  coveringLines,
  tenantSpend,
  type BudgetCrossing,
  type CoveringLine,
  type SpendPolicy,
} from '@tokencircuit/governance';
import type { SqlSession } from '../sql-database.js';
import { readSettledSpend, recordBudgetCrossings, type RecordedCrossing } from './record-budget-crossings.js';
import { settleOutcomes, spendLineRefOf, type SettledTotals } from './settle-outcomes.js';
import { lockSpendLines } from './spend-lines.js';

/**
 * settleOutcomes, then what the settle crossed (budgetCrossings) recorded as budget interventions and episode steps
 * in the same transaction (recordBudgetCrossings): what the projector does with the outcomes it folds, so usage
 * published straight to Kafka pages and intervenes like usage through POST /v1/events. Each crossing is caused by
 * the chunk's last outcome on its line. An outcome the API settled already settles nothing here and crosses
 * nothing again (and a crossing id is appended once whoever sees it).
 */
export async function settleOutcomesWithCrossings(
  session: SqlSession,
  policy: SpendPolicy,
  policyVersion: string,
  outcomes: readonly ToolCallOutcome[],
): Promise<{ readonly totals: SettledTotals; readonly recorded: readonly RecordedCrossing[] }> {
  const byTenant = new Map<string, { outcome: ToolCallOutcome; covering: CoveringLine[] }[]>();
  for (const outcome of outcomes) {
    const covering = coveringLines(
      tenantSpend(policy, outcome.tenant),
      outcome.tenant,
      outcome.data.call,
      Date.parse(outcome.time),
    );
    if (covering.length === 0) continue;
    byTenant.set(outcome.tenant, [...(byTenant.get(outcome.tenant) ?? []), { outcome, covering }]);
  }
  const tenants = [...byTenant.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const linesOf = (tenant: string) => {
    const lines = new Map<string, CoveringLine>();
    for (const { covering } of byTenant.get(tenant)!) for (const line of covering) lines.set(line.key, line);
    return [...lines.values()];
  };
  const before = new Map<string, Map<string, number>>();
  for (const tenant of tenants)
    before.set(tenant, await readSettledSpend(session, tenant, linesOf(tenant).map(spendLineRefOf)));
  const totals = await settleOutcomes(session, policy, outcomes);
  const recorded: RecordedCrossing[] = [];
  if (totals.calls === 0) return { totals, recorded };
  for (const tenant of tenants) {
    const covering = linesOf(tenant);
    const after = await lockSpendLines(session, tenant, covering.map(spendLineRefOf));
    const was = after.map((l) => ({ ...l, spent: before.get(tenant)!.get(l.key) ?? 0, reserved: 0 }));
    const crossings = budgetCrossings(tenant, covering, was, after);
    const byCause = new Map<ToolCallOutcome, BudgetCrossing[]>();
    for (const crossing of crossings) {
      const cause = byTenant
        .get(tenant)!
        .findLast(({ covering: c }) =>
          c.some(
            (l) =>
              l.budget.id === crossing.budgetId &&
              l.subject === crossing.subject &&
              l.position.window === crossing.window,
          ),
        )!.outcome;
      byCause.set(cause, [...(byCause.get(cause) ?? []), crossing]);
    }
    for (const [outcome, crossed] of byCause) {
      recorded.push(
        ...(await recordBudgetCrossings(session, policy, policyVersion, crossed, {
          tenant,
          call: outcome.data.call,
          causingEventIds: [outcome.id],
          crossedBy: 'settle',
          issuedAt: outcome.time,
        })),
      );
    }
  }
  return { totals, recorded };
}
