import type { ToolCall, Usage } from '@tokencircuit/contracts';
import { lineKey, type Hold } from './ledger.js';
import type { Amounts, SpendBudget, SpendPolicy, TenantSpend } from './spend-policy.js';
import { MICROS } from './spend-policy.js';
import { windowAt, type WindowPosition } from './windows.js';

/** One budget's current line for a call: which row of the ledger the call is held against. */
export interface CoveringLine {
  readonly budget: SpendBudget;
  readonly subject: string;
  readonly position: WindowPosition;
  readonly key: string;
}

function subjectOf(budget: SpendBudget, tenant: string, call: ToolCall): string | null {
  switch (budget.per) {
    case 'run':
      return call.run;
    case 'agent':
      return call.agent;
    case 'principal':
      return call.principal;
    case 'tenant':
      return tenant;
    default: {
      const exhaustive: never = budget.per;
      return exhaustive;
    }
  }
}

/** Every budget that covers a call, at the window that holds `nowMs`; a per-principal budget skips a call without one. */
export function coveringLines(spend: TenantSpend, tenant: string, call: ToolCall, nowMs: number): CoveringLine[] {
  const lines: CoveringLine[] = [];
  for (const budget of spend.budgets) {
    if (budget.tools !== null && !budget.tools.includes(call.tool)) continue;
    if (budget.agents !== null && !budget.agents.includes(call.agent)) continue;
    const subject = subjectOf(budget, tenant, call);
    if (subject === null) continue;
    const position = windowAt(budget.window, nowMs, spend.timeZone);
    lines.push({ budget, subject, position, key: lineKey(budget.id, subject, position.window) });
  }
  return lines;
}

/** The estimate preflight reserves: what the call declares, else the tool's policy estimate, else the default. */
export function estimateFor(policy: SpendPolicy, tool: string, declared: Partial<Amounts> = {}): Amounts {
  const forTool = Object.hasOwn(policy.estimates.tools, tool) ? policy.estimates.tools[tool]! : {};
  const pick = (meter: keyof Amounts) => declared[meter] ?? forTool[meter] ?? policy.estimates.default[meter];
  return { tokens: pick('tokens'), cost: pick('cost'), calls: pick('calls') };
}

export const holdsFor = (lines: readonly CoveringLine[], estimate: Amounts): Hold[] =>
  lines.map((l) => ({ line: l.key, meter: l.budget.meter, amount: estimate[l.budget.meter] }));

/** Where the cost of a usage came from; `unpriced` = no declared cost and no price for the model. */
export type CostBasis = 'declared' | 'priced' | 'measured' | 'unpriced' | 'none';

/**
 * What a call consumed, in ledger units: one call, input + output tokens, and its cost in micro-units of the
 * policy's currency (declared or measured if the usage says so in that currency, else priced by the tenant's
 * table). A call that reported no usage consumed one call and nothing else.
 */
export function actualOf(
  usage: Usage | undefined,
  spend: TenantSpend,
  currency: string,
): { readonly amounts: Amounts; readonly costBasis: CostBasis } {
  if (usage === undefined) return { amounts: { tokens: 0, cost: 0, calls: 1 }, costBasis: 'none' };
  const tokens = usage.inputTokens + usage.outputTokens;
  if (usage.cost !== null && usage.cost.currency === currency) {
    return {
      amounts: { tokens, cost: Math.round(usage.cost.amount * MICROS), calls: 1 },
      costBasis: usage.cost.source,
    };
  }
  const price = usage.model !== null && Object.hasOwn(spend.prices, usage.model) ? spend.prices[usage.model]! : null;
  if (price === null) return { amounts: { tokens, cost: 0, calls: 1 }, costBasis: 'unpriced' };
  // A price per million tokens times tokens is exactly micro-units.
  const cost =
    (usage.inputTokens - usage.cachedInputTokens) * price.inputPerMTok +
    usage.cachedInputTokens * price.cachedInputPerMTok +
    usage.outputTokens * price.outputPerMTok;
  return { amounts: { tokens, cost: Math.round(cost), calls: 1 }, costBasis: 'priced' };
}
