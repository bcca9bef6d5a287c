import { committed, type LedgerLine, type ReserveOutcome } from './ledger.js';
import type { CoveringLine } from './covering.js';
import type { Amounts } from './spend-policy.js';

export type BudgetLevel = 'ok' | 'advise' | 'page' | 'block';

/**
 * The evidence behind a budget verdict, as the preflight answer and the notifier carry it: which budget,
 * whose, which window, how much of the limit is committed, and the next allowed action. Amounts are ledger
 * units: tokens, calls, or micro-units of `currency`.
 */
export interface BudgetArtifact {
  readonly budget_id: string;
  readonly per: string;
  readonly subject: string;
  readonly meter: string;
  readonly window: string;
  readonly window_kind: string;
  readonly limit: number;
  readonly spent: number;
  readonly reserved: number;
  readonly carried: number;
  readonly estimate: number;
  /** (carried + spent + reserved, this call's estimate included when reserved) / limit. */
  readonly used_ratio: number;
  readonly level: BudgetLevel;
  /** The threshold reached (share of the limit), 1 for the hard limit, null when none. */
  readonly threshold: number | null;
  /** Whether this call took the line over the threshold (a page is sent once per crossing). */
  readonly crossed: boolean;
  readonly next_action: string | null;
  readonly currency: string | null;
}

export interface BudgetVerdict {
  readonly level: BudgetLevel;
  readonly nextAction: string | null;
  /** The most severe line's artifact; null when no budget covers the call. */
  readonly artifact: BudgetArtifact | null;
  readonly lines: readonly BudgetArtifact[];
}

const SEVERITY: Readonly<Record<BudgetLevel, number>> = { ok: 0, advise: 1, page: 2, block: 3 };

/** Judges the reservation preflight attempted: blocked at the hard limit, else the highest soft threshold reached. */
export function budgetVerdict(
  covering: readonly CoveringLine[],
  before: readonly LedgerLine[],
  outcome: ReserveOutcome,
  estimate: Amounts,
  currency: string,
): BudgetVerdict {
  const lines = covering.map((c): BudgetArtifact => {
    const was = before.find((l) => l.key === c.key)!;
    const now = outcome.kind === 'reserved' ? outcome.lines.find((l) => l.key === c.key)! : was;
    const refused = outcome.kind === 'refused' && outcome.line.key === c.key;
    const ratio = committed(now) / c.budget.limit;
    const threshold = refused ? null : ([...c.budget.thresholds].reverse().find((t) => t.at <= ratio) ?? null);
    const level: BudgetLevel = refused ? 'block' : (threshold?.level ?? 'ok');
    return {
      budget_id: c.budget.id,
      per: c.budget.per,
      subject: c.subject,
      meter: c.budget.meter,
      window: c.position.window,
      window_kind: c.budget.window.kind,
      limit: c.budget.limit,
      spent: now.spent,
      reserved: now.reserved,
      carried: now.carried,
      estimate: estimate[c.budget.meter],
      used_ratio: Math.round(ratio * 10_000) / 10_000,
      level,
      threshold: refused ? 1 : (threshold?.at ?? null),
      crossed: refused || (threshold !== null && committed(was) / c.budget.limit < threshold.at),
      next_action: refused ? c.budget.onLimit : (threshold?.nextAction ?? null),
      currency: c.budget.meter === 'cost' ? currency : null,
    };
  });
  const worst = lines.reduce<BudgetArtifact | null>(
    (w, l) =>
      l.level !== 'ok' &&
      (w === null ||
        SEVERITY[l.level] > SEVERITY[w.level] ||
        (SEVERITY[l.level] === SEVERITY[w.level] && l.used_ratio > w.used_ratio))
        ? l
        : w,
    null,
  );
  return { level: worst?.level ?? 'ok', nextAction: worst?.next_action ?? null, artifact: worst, lines };
}
