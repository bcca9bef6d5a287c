import { uuidV5 } from '../artifact/intervention-id.js';
import type { CoveringLine } from './covering.js';
import type { LedgerLine } from './ledger.js';

export type CrossingLevel = 'advise' | 'page' | 'block';

/**
 * One threshold of one budget line that a settle took the line's settled spend across: a soft threshold
 * (advise or page, per the policy) or the hard limit (block). `crossingId` is the same for every settle of
 * every process that crosses the same threshold of the same line in the same window, so an intervention
 * appended under it is appended once (the intervention id is unique; appendInterventions is idempotent).
 */
export interface BudgetCrossing {
  readonly crossingId: string;
  readonly budgetId: string;
  readonly per: 'run' | 'agent' | 'principal' | 'tenant';
  readonly subject: string;
  readonly meter: string;
  readonly window: string;
  readonly windowKind: string;
  readonly limit: number;
  /** Settled spend after the settle (earlier hour buckets of a rolling window included). */
  readonly spent: number;
  readonly reserved: number;
  /** The share of the limit crossed; 1 for the hard limit. */
  readonly threshold: number;
  readonly level: CrossingLevel;
  /** The policy's next allowed action at this threshold ("summarise and stop", "ask for a budget increase"). */
  readonly nextAction: string;
}

/** The namespace of budget crossing ids (a fixed random UUID, apart from the failure interventions'). */
export const BUDGET_CROSSING_NAMESPACE = '9e3c2a71-4d0b-4f6e-8b15-6a7c0d2e9f43';

/** Stable id of a crossing: tenant, budget, subject, window and threshold (so a new window crosses anew). */
export const budgetCrossingId = (
  tenant: string,
  budgetId: string,
  subject: string,
  window: string,
  threshold: number,
): string => uuidV5(JSON.stringify([tenant, budgetId, subject, window, threshold]), BUDGET_CROSSING_NAMESPACE);

const settled = (line: LedgerLine): number => line.carried + line.spent;

/**
 * What a settle crossed: for every covering line, each soft threshold and the hard limit that its settled
 * spend (carried + spent; reservations are the preflight's business) was below before and has reached
 * after. Lines absent from `before` count as empty. Redelivered usage settles nothing (before = after), so
 * it crosses nothing; two settles serialised by the line's row lock see each other's spend, so only the
 * one that takes the line across reports it — and the id makes a second report harmless anyway.
 */
export function budgetCrossings(
  tenant: string,
  covering: readonly CoveringLine[],
  before: readonly LedgerLine[],
  after: readonly LedgerLine[],
): BudgetCrossing[] {
  const crossings: BudgetCrossing[] = [];
  for (const c of covering) {
    const now = after.find((l) => l.key === c.key);
    if (now === undefined) continue;
    const was = before.find((l) => l.key === c.key);
    const from = was === undefined ? now.carried : settled(was);
    const to = settled(now);
    if (to <= from) continue;
    const { budget } = c;
    const steps: { at: number; level: CrossingLevel; nextAction: string }[] = [
      ...budget.thresholds.filter((t) => t.at < 1),
      { at: 1, level: 'block', nextAction: budget.onLimit },
    ];
    for (const step of steps) {
      const mark = step.at * budget.limit;
      if (from < mark && to >= mark)
        crossings.push({
          crossingId: budgetCrossingId(tenant, budget.id, c.subject, c.position.window, step.at),
          budgetId: budget.id,
          per: budget.per,
          subject: c.subject,
          meter: budget.meter,
          window: c.position.window,
          windowKind: budget.window.kind,
          limit: budget.limit,
          spent: to,
          reserved: now.reserved,
          threshold: step.at,
          level: step.level,
          nextAction: step.nextAction,
        });
    }
  }
  return crossings;
}
