// Spend policies that specs share (not exported from the package).

/**
 * A run budget of model tokens (id run-tokens): advice at 80 % and a page at 90 % of `limit`, the page with
 * `pageNextAction` when given. Goes into a policy's `spend.budgets`.
 */
export function pagedRunBudget(limit: number, pageNextAction?: string) {
  return {
    id: 'run-tokens',
    per: 'run',
    meter: 'tokens',
    limit,
    thresholds: [
      { at: 0.8, level: 'advise' },
      { at: 0.9, level: 'page', ...(pageNextAction === undefined ? {} : { nextAction: pageNextAction }) },
    ],
  } as const;
}
