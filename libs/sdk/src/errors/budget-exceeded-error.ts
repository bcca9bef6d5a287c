import type { CallHandle } from '../calls/call-handle.js';
import type { BudgetAnswer } from '../transport/preflight-client.js';

/**
 * A spend budget refused the call before it ran (docs/budgets.md): `budget.artifact` names the budget, whose
 * it is, its window, what is spent and reserved against its limit, and `nextAction` what is allowed instead
 * ("ask for a budget increase" unless the policy says otherwise).
 */
export class BudgetExceededError extends Error {
  override readonly name = 'BudgetExceededError';
  readonly nextAction: string;

  constructor(
    readonly reason: string,
    readonly budget: BudgetAnswer,
    readonly call: CallHandle,
  ) {
    super(`TokenCircuit stopped ${call.tool}: ${reason}`);
    this.nextAction = budget.nextAction ?? 'ask for a budget increase';
  }

  /** One sentence for the model, without the ledger's figures. */
  toModelMessage(): string {
    const id = typeof this.budget.artifact?.['budget_id'] === 'string' ? ` ${this.budget.artifact['budget_id']}` : '';
    return `The call to ${this.call.tool} was not made: the spend budget${id} is used up. Next: ${this.nextAction}.`;
  }
}
