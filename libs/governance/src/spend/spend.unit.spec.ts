import { describe, expect, it } from 'vitest';
import { ToolCallSchema } from '@tokencircuit/contracts';
import { toolCall } from '@tokencircuit/contracts/testing';
import { DEFAULT_CONFIG, loadConfig, TokenCircuitConfigError } from '../config/load-config.js';
import { policyVersion } from '../config/policy-version.js';
import { budgetVerdict } from './budget-verdict.js';
import { actualOf, coveringLines, estimateFor, holdsFor } from './covering.js';
import { reserve, settle, type LedgerLine } from './ledger.js';
import { pagedRunBudget } from './spec-support.js';
import { tenantSpend } from './spend-policy.js';
import { windowAt } from './windows.js';

const policy = loadConfig({
  spend: {
    timeZone: 'UTC',
    budgets: [
      pagedRunBudget(1000, 'page the owner'),
      { id: 'tenant-usd', per: 'tenant', meter: 'cost', limit: 25, window: { kind: 'month' } },
    ],
    estimates: { default: { tokens: 100 }, tools: { search: { tokens: 40 } } },
    tenants: {
      globex: { timeZone: 'Asia/Tokyo', budgets: [{ id: 'run-tokens', per: 'run', meter: 'tokens', limit: 50 }] },
    },
  },
});
const spend = policy.spend!;
const NOW = Date.parse('2026-01-31T23:30:00.000Z');
const call = ToolCallSchema.parse(toolCall({ agent: 'loop-bot', run: 'run-7', tool: 'llm.chat' }));

/** The ledger rows preflight would have read: `spent` per budget id. */
function linesOf(
  tenant: string,
  spent: Record<string, number>,
): { covering: ReturnType<typeof coveringLines>; lines: LedgerLine[] } {
  const covering = coveringLines(tenantSpend(spend, tenant), tenant, call, NOW);
  return {
    covering,
    lines: covering.map((c) => ({
      key: c.key,
      meter: c.budget.meter,
      limit: c.budget.limit,
      spent: spent[c.budget.id] ?? 0,
      reserved: 0,
      carried: 0,
    })),
  };
}

describe('spend policy', () => {
  it('a policy without spend keeps its version (no budgets, nothing changes)', () => {
    expect(DEFAULT_CONFIG.spend).toBeUndefined();
    expect(policyVersion(loadConfig({}))).toBe(policyVersion(DEFAULT_CONFIG));
  });

  it('refuses two budgets under one id, naming the id', () => {
    const twice = { id: 'x', per: 'run', meter: 'calls', limit: 3 };
    expect(() => loadConfig({ spend: { budgets: [twice, twice] } })).toThrow(TokenCircuitConfigError);
    expect(() => loadConfig({ spend: { budgets: [twice, twice] } })).toThrow(
      /spend\.budgets: the id "x" is used twice/,
    );
  });

  it('refuses an unknown time zone with the field and what is expected', () => {
    expect(() => loadConfig({ spend: { timeZone: 'Mars/Olympus' } })).toThrow(/spend\.timeZone: an IANA time zone/);
  });

  it('keeps cost in micro-units and lets a tenant replace a budget and its time zone', () => {
    expect(spend.budgets.find((b) => b.id === 'tenant-usd')!.limit).toBe(25_000_000);
    const globex = tenantSpend(spend, 'globex');
    expect(globex.timeZone).toBe('Asia/Tokyo');
    expect(globex.budgets.find((b) => b.id === 'run-tokens')!.limit).toBe(50);
    expect(tenantSpend(spend, 'acme')).toBe(spend);
  });
});

describe('windows', () => {
  it('a calendar day and month start at midnight in the tenant’s time zone', () => {
    expect(windowAt({ kind: 'day' }, NOW, 'UTC').window).toBe('2026-01-31');
    expect(windowAt({ kind: 'day' }, NOW, 'Europe/Berlin').window).toBe('2026-02-01');
    expect(windowAt({ kind: 'month' }, NOW, 'Europe/Berlin').window).toBe('2026-02');
    expect(windowAt({ kind: 'month' }, NOW, 'America/New_York').window).toBe('2026-01');
  });

  it('a rolling window is this hour’s bucket and the ones before it', () => {
    expect(windowAt({ kind: 'rolling', hours: 24 }, NOW, 'UTC')).toEqual({
      window: '2026-01-31T23',
      carriedFrom: '2026-01-31T00',
    });
    expect(windowAt({ kind: 'rolling', hours: 1 }, NOW, 'UTC')).toEqual({ window: '2026-01-31T23', carriedFrom: null });
    expect(windowAt({ kind: 'run' }, NOW, 'UTC')).toEqual({ window: 'run', carriedFrom: null });
  });
});

describe('estimates and usage', () => {
  it('reserves what the call declares, else the tool’s estimate, else the default', () => {
    expect(estimateFor(spend, 'search')).toEqual({ tokens: 40, cost: 10_000, calls: 1 });
    expect(estimateFor(spend, 'llm.chat')).toEqual({ tokens: 100, cost: 10_000, calls: 1 });
    expect(estimateFor(spend, 'search', { tokens: 7 }).tokens).toBe(7);
  });

  it('prices tokens by the table (cached input at its own price) unless the cost is declared', () => {
    const usage = {
      model: 'gpt-4o',
      provider: 'openai',
      inputTokens: 1000,
      outputTokens: 500,
      cachedInputTokens: 200,
      reasoningTokens: 0,
      cost: null,
    };
    // 800 × 2.5 + 200 × 1.25 + 500 × 10 micro-dollars.
    expect(actualOf(usage, spend, 'USD')).toEqual({
      amounts: { tokens: 1500, cost: 7250, calls: 1 },
      costBasis: 'priced',
    });
    const declared = { ...usage, cost: { amount: 0.5, currency: 'USD', source: 'declared' as const } };
    expect(actualOf(declared, spend, 'USD')).toEqual({
      amounts: { tokens: 1500, cost: 500_000, calls: 1 },
      costBasis: 'declared',
    });
    expect(actualOf({ ...usage, model: 'in-house-7b' }, spend, 'USD').costBasis).toBe('unpriced');
    expect(actualOf(undefined, spend, 'USD')).toEqual({ amounts: { tokens: 0, cost: 0, calls: 1 }, costBasis: 'none' });
  });
});

describe('budget verdicts: given the ledger, when preflight reserves, then', () => {
  const judge = (tenant: string, spent: Record<string, number>, tokens?: number) => {
    const { covering, lines } = linesOf(tenant, spent);
    const estimate = estimateFor(spend, call.tool, tokens === undefined ? {} : { tokens });
    return budgetVerdict(covering, lines, reserve(lines, holdsFor(covering, estimate)), estimate, spend.currency);
  };

  it('below every threshold: ok, nothing to say', () => {
    expect(judge('acme', { 'run-tokens': 500 })).toMatchObject({ level: 'ok', nextAction: null, artifact: null });
  });

  it('at 80 % of the run’s tokens: advise, summarise and stop, crossed once', () => {
    const verdict = judge('acme', { 'run-tokens': 700 });
    expect(verdict).toMatchObject({ level: 'advise', nextAction: 'summarise and stop' });
    expect(verdict.artifact).toMatchObject({
      budget_id: 'run-tokens',
      subject: 'run-7',
      spent: 700,
      reserved: 100,
      used_ratio: 0.8,
      threshold: 0.8,
      crossed: true,
    });
    // Already past 80 % before this call (820 + a 40-token search): still advised, but no new crossing.
    expect(judge('acme', { 'run-tokens': 820 }, 40).artifact).toMatchObject({ level: 'advise', crossed: false });
  });

  it('at 90 %: page, with the threshold’s own next action', () => {
    expect(judge('acme', { 'run-tokens': 800 })).toMatchObject({ level: 'page', nextAction: 'page the owner' });
  });

  it('past the hard limit: block with the budget artifact and "ask for a budget increase"; nothing reserved', () => {
    const verdict = judge('acme', { 'run-tokens': 901 });
    expect(verdict.level).toBe('block');
    expect(verdict.artifact).toMatchObject({
      budget_id: 'run-tokens',
      level: 'block',
      limit: 1000,
      spent: 901,
      reserved: 0,
      estimate: 100,
      threshold: 1,
      next_action: 'ask for a budget increase',
    });
  });

  it('a tenant’s own budget replaces the policy’s: globex’s run budget is 50 tokens', () => {
    expect(judge('globex', {}).artifact).toMatchObject({ budget_id: 'run-tokens', limit: 50, level: 'block' });
  });

  it('the outcome settles the actual amount and releases the rest of the estimate', () => {
    const { covering, lines } = linesOf('acme', { 'run-tokens': 100 });
    const holds = holdsFor(covering, estimateFor(spend, call.tool));
    const reserved = reserve(lines, holds);
    if (reserved.kind !== 'reserved') throw new Error('expected a reservation');
    const settled = settle(reserved.lines, holds, { tokens: 64, cost: 960, calls: 1 });
    expect(settled.map((l) => [l.spent, l.reserved])).toEqual([
      [164, 0],
      [960, 0],
    ]);
  });
});
