import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@tokencircuit/governance';
import { BudgetExceededError } from '@tokencircuit/sdk';
import { ApiHarness } from '../api/support/api-harness.js';
import { CHAT_ESTIMATE, chatUntilStopped } from './support/run-budget.js';

/**
 * An agent loop that spends model tokens, through the SDK over HTTP, the real API and Postgres: each turn
 * reserves its estimate, reports what the model used, and the run's budget advises at 80 % and blocks at 100 %.
 */
const policy = loadConfig({
  spend: {
    budgets: [{ id: 'run-tokens', per: 'run', meter: 'tokens', limit: 10_000 }],
    estimates: CHAT_ESTIMATE,
  },
});

describe('an agent loop against a run budget (SDK, HTTP, real Postgres)', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await ApiHarness.start({ policy });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('is advised from the 8th turn (80 %), blocked on the 11th with the budget artifact, and the spend view shows it', async () => {
    // The model: every turn reads 800 tokens (200 of them cached) and writes 200.
    const { turns, stop, advice } = await chatUntilStopped(api, 'run-loop', {
      inputTokens: 800,
      outputTokens: 200,
      cachedInputTokens: 200,
    });

    expect(turns).toBe(11);
    expect(advice.map((a) => a.turn)).toEqual([8, 9, 10]);
    expect(advice[0]!.budget).toMatchObject({ level: 'advise', nextAction: 'summarise and stop' });
    expect(advice[0]!.budget.artifact).toMatchObject({ budget_id: 'run-tokens', used_ratio: 0.8, crossed: true });
    expect(stop).toBeInstanceOf(BudgetExceededError);
    const exceeded = stop as BudgetExceededError;
    expect(exceeded.nextAction).toBe('ask for a budget increase');
    expect(exceeded.budget.artifact).toMatchObject({
      budget_id: 'run-tokens',
      per: 'run',
      subject: 'run-loop',
      meter: 'tokens',
      window: 'run',
      limit: 10_000,
      spent: 10_000,
      reserved: 0,
      estimate: 1_000,
      level: 'block',
      next_action: 'ask for a budget increase',
    });
    expect(exceeded.toModelMessage()).toBe(
      'The call to llm.chat was not made: the spend budget run-tokens is used up. Next: ask for a budget increase.',
    );

    const response = await api.as('acme', '/v1/dashboard/spend?subject=run-loop');
    expect(response.status).toBe(200);
    const view = (await response.json()) as { currency: string; lines: unknown[]; byTool: unknown[] };
    expect(view.currency).toBe('USD');
    expect(view.lines).toEqual([
      expect.objectContaining({
        budgetId: 'run-tokens',
        subject: 'run-loop',
        limit: 10_000,
        spent: 10_000,
        reserved: 0,
        usedRatio: 1,
      }),
    ]);
    // Ten turns of gpt-4o-mini: 600 × 0.15 + 200 × 0.075 + 200 × 0.6 micro-dollars each.
    expect(view.byTool).toEqual([{ agent: 'writer-bot', tool: 'llm.chat', calls: 10, tokens: 10_000, cost: 2_250 }]);
    // Another tenant sees none of it.
    const globex = (await (await api.as('globex', '/v1/dashboard/spend')).json()) as { lines: unknown[] };
    expect(globex.lines).toEqual([]);
  });
});
