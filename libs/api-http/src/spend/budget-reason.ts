import type { BudgetArtifact } from '@tokencircuit/governance';

/** Ledger units as people read them: cost back in currency units. */
export function amountText(artifact: Pick<BudgetArtifact, 'meter' | 'currency'>, amount: number): string {
  return artifact.meter === 'cost'
    ? `${(amount / 1_000_000).toFixed(2)} ${artifact.currency}`
    : `${amount} ${artifact.meter}`;
}

/** One line, like every preflight reason: which budget refused, how much is committed, and what to do next. */
export function budgetReason(a: BudgetArtifact): string {
  const committed = a.carried + a.spent + a.reserved;
  return (
    `budget ${a.budget_id} of ${a.per} ${a.subject} (${a.window_kind} ${a.window}) would pass its limit: ` +
    `${amountText(a, committed)} committed + ${amountText(a, a.estimate)} estimated > ${amountText(a, a.limit)}; ` +
    `next: ${a.next_action ?? 'stop'}`
  );
}
