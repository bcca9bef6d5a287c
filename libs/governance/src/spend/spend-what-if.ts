import type { AgentEvent } from '@tokencircuit/contracts';
import type { TokenCircuitConfig } from '../config/config.js';
import { epochMs } from '../support/time.js';
import { budgetVerdict, type BudgetLevel } from './budget-verdict.js';
import { actualOf, coveringLines, estimateFor, holdsFor } from './covering.js';
import { reserve, settle, type Hold, type LedgerLine } from './ledger.js';
import { tenantSpend, type Amounts } from './spend-policy.js';

/** What one policy's budgets would have done to a stream of calls. */
export interface SpendReplay {
  /** Preflight verdicts at each requested call covered by a budget. */
  readonly verdicts: Readonly<Record<BudgetLevel, number>>;
  /** Usage settled by the calls the budgets let through. */
  readonly spent: Amounts;
  /** Usage of the calls the budgets would have refused: what the policy would have saved. */
  readonly avoided: Amounts;
  /** Per budget id: the time of the first refusal, or null. */
  readonly firstBlock: Readonly<Record<string, string | null>>;
}

const ZERO: Amounts = { tokens: 0, cost: 0, calls: 0 };
const plus = (a: Amounts, b: Amounts): Amounts => ({
  tokens: a.tokens + b.tokens,
  cost: a.cost + b.cost,
  calls: a.calls + b.calls,
});

/**
 * Replays stored events through one policy's spend ledger in memory: every tool_call.requested reserves as
 * preflight would (the policy's estimate for the tool), every outcome settles its usage; a call the budgets
 * would have refused spends nothing. Run it under two policies to see what a budget change would have done.
 * Pure and deterministic; reservations are never expired (a replay has no clock but the events').
 */
export function replaySpend(events: Iterable<AgentEvent>, policy: TokenCircuitConfig): SpendReplay {
  const spend = policy.spend;
  const verdicts: Record<BudgetLevel, number> = { ok: 0, advise: 0, page: 0, block: 0 };
  const firstBlock: Record<string, string | null> = Object.fromEntries((spend?.budgets ?? []).map((b) => [b.id, null]));
  let spent = ZERO;
  let avoided = ZERO;
  if (spend === undefined) return { verdicts, spent, avoided, firstBlock };
  const lines = new Map<string, LedgerLine>();
  const held = new Map<string, readonly Hold[] | 'refused'>();
  for (const event of events) {
    if (event.type !== 'tool_call.requested' && event.type !== 'tool_call.outcome') continue;
    const call = event.data.call;
    const callKey = `${event.tenant}\u001f${call.run}\u001f${call.callId}`;
    const tenant = tenantSpend(spend, event.tenant);
    if (event.type === 'tool_call.requested') {
      if (held.has(callKey)) continue;
      const covering = coveringLines(tenant, event.tenant, call, epochMs(event.time));
      if (covering.length === 0) continue;
      const before = covering.map(
        (c) =>
          lines.get(c.key) ?? {
            key: c.key,
            meter: c.budget.meter,
            limit: c.budget.limit,
            spent: 0,
            reserved: 0,
            carried: 0,
          },
      );
      const estimate = estimateFor(spend, call.tool);
      const holds = holdsFor(covering, estimate);
      const outcome = reserve(before, holds);
      const verdict = budgetVerdict(covering, before, outcome, estimate, spend.currency);
      verdicts[verdict.level] += 1;
      if (outcome.kind === 'refused') {
        held.set(callKey, 'refused');
        const id = verdict.artifact?.budget_id;
        if (id !== undefined && firstBlock[id] === null) firstBlock[id] = event.time;
      } else {
        for (const line of outcome.lines) lines.set(line.key, line);
        held.set(callKey, holds);
      }
      continue;
    }
    const holds = held.get(callKey);
    const { amounts } = actualOf(event.data.usage, tenant, spend.currency);
    if (holds === 'refused') {
      avoided = plus(avoided, amounts);
      held.delete(callKey);
    } else if (holds !== undefined) {
      const touched = holds.map((h) => lines.get(h.line)!);
      for (const line of settle(touched, holds, amounts)) lines.set(line.key, line);
      spent = plus(spent, amounts);
      held.delete(callKey);
    }
  }
  return { verdicts, spent, avoided, firstBlock };
}
