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
  /** Runs (tenant and run) with at least one call advised or paged, and with at least one call refused. */
  readonly runs: { readonly advised: number; readonly blocked: number };
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
  const replayer = new SpendReplayer(policy);
  for (const event of events) replayer.push(event);
  return replayer.result();
}

/** replaySpend one event at a time, for a stream read page by page (`tokencircuit whatif --database`). */
export class SpendReplayer {
  private readonly verdicts: Record<BudgetLevel, number> = { ok: 0, advise: 0, page: 0, block: 0 };
  private readonly firstBlock: Record<string, string | null>;
  private readonly advisedRuns = new Set<string>();
  private readonly blockedRuns = new Set<string>();
  private spent = ZERO;
  private avoided = ZERO;
  private readonly lines = new Map<string, LedgerLine>();
  private readonly held = new Map<string, readonly Hold[] | 'refused'>();

  constructor(private readonly policy: TokenCircuitConfig) {
    this.firstBlock = Object.fromEntries((policy.spend?.budgets ?? []).map((b) => [b.id, null]));
  }

  push(event: AgentEvent): void {
    const spend = this.policy.spend;
    if (spend === undefined) return;
    if (event.type !== 'tool_call.requested' && event.type !== 'tool_call.outcome') return;
    const { lines, held } = this;
    const call = event.data.call;
    const runKey = `${event.tenant}\u001f${call.run}`;
    const callKey = `${runKey}\u001f${call.callId}`;
    const tenant = tenantSpend(spend, event.tenant);
    if (event.type === 'tool_call.requested') {
      if (held.has(callKey)) return;
      const covering = coveringLines(tenant, event.tenant, call, epochMs(event.time));
      if (covering.length === 0) return;
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
      this.verdicts[verdict.level] += 1;
      if (verdict.level === 'advise' || verdict.level === 'page') this.advisedRuns.add(runKey);
      if (outcome.kind === 'refused') {
        this.blockedRuns.add(runKey);
        held.set(callKey, 'refused');
        const id = verdict.artifact?.budget_id;
        if (id !== undefined && this.firstBlock[id] === null) this.firstBlock[id] = event.time;
      } else {
        for (const line of outcome.lines) lines.set(line.key, line);
        held.set(callKey, holds);
      }
      return;
    }
    const holds = held.get(callKey);
    const { amounts } = actualOf(event.data.usage, tenant, spend.currency);
    if (holds === 'refused') {
      this.avoided = plus(this.avoided, amounts);
      held.delete(callKey);
    } else if (holds !== undefined) {
      const touched = holds.map((h) => lines.get(h.line)!);
      for (const line of settle(touched, holds, amounts)) lines.set(line.key, line);
      this.spent = plus(this.spent, amounts);
      held.delete(callKey);
    }
  }

  result(): SpendReplay {
    return {
      verdicts: { ...this.verdicts },
      runs: { advised: this.advisedRuns.size, blocked: this.blockedRuns.size },
      spent: this.spent,
      avoided: this.avoided,
      firstBlock: { ...this.firstBlock },
    };
  }
}
