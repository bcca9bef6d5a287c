import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetCrossingId, episodeIdOf, loadConfig, type BudgetArtifact } from '@tokencircuit/governance';
import { verifyTenantChain } from '@tokencircuit/storage';
import { outcome, toolCall } from '@tokencircuit/contracts/testing';
import { BudgetExceededError } from '@tokencircuit/sdk';
import { ApiHarness } from '../api/support/api-harness.js';
import { CHAT_ESTIMATE, chatUntilStopped, pagedRunBudget } from './support/run-budget.js';

/**
 * Budget crossings become interventions: an agent loop spends model tokens through the SDK over HTTP (the real
 * API, its own Postgres role, a real Kafka topic for the events); each settle that takes the run's budget across
 * a threshold appends one budget intervention to the tenant's hash chain and one episode step for the notifier.
 */
const policy = loadConfig({
  spend: { budgets: [pagedRunBudget('summarise and stop')], estimates: CHAT_ESTIMATE },
});

interface InterventionRow {
  id: string;
  level: string;
  failure_class: string;
  key_id: string;
  next_action: string;
  run: string;
  artifact: { spend_budget: Record<string, unknown>; failure_class: string; next_allowed_action: string };
}

describe('budget crossings as interventions (SDK, HTTP, real Postgres and Kafka)', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await ApiHarness.start({ policy });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('advice at 80 %, a page at 90 %, a block at 100 %: one intervention each, chained, with the budget artifact', async () => {
    const { turns, stop, advice } = await chatUntilStopped(api, 'run-crossings', {
      inputTokens: 800,
      outputTokens: 200,
    });
    expect(turns).toBe(11);
    expect(advice[0]?.turn).toBe(8);
    expect(stop).toBeInstanceOf(BudgetExceededError);
    const blocked = (stop as BudgetExceededError).budget.artifact as unknown as BudgetArtifact;
    expect(blocked).toMatchObject({ budget_id: 'run-tokens', level: 'block', spent: 10_000, limit: 10_000 });

    // The 11th turn's refused preflight saw the same crossing the 10th turn's settle appended: no second block.
    const { rows } = await api.database.pool.query<InterventionRow>(
      `SELECT id, level, failure_class, key_id, next_action, run, artifact FROM interventions
        WHERE tenant = 'acme' AND failure_class = 'budget' ORDER BY seq`,
    );
    const keyId = 'budget|acme|run-tokens|run-crossings|run';
    expect(rows.map((r) => [r.level, r.next_action, r.artifact.spend_budget['threshold']])).toEqual([
      ['advise', 'summarise_and_stop', 0.8],
      ['page', 'summarise_and_stop', 0.9],
      ['block', 'ask_for_budget_increase', 1],
    ]);
    expect(rows.map((r) => r.id)).toEqual(
      [0.8, 0.9, 1].map((at) => budgetCrossingId('acme', 'run-tokens', 'run-crossings', 'run', at)),
    );
    for (const row of rows) expect(row).toMatchObject({ failure_class: 'budget', key_id: keyId, run: 'run-crossings' });
    // The block's artifact names what the SDK's BudgetExceededError carried: the budget, whose, its window and amounts.
    expect(rows[2]!.artifact.spend_budget).toEqual({
      budget_id: blocked.budget_id,
      per: 'run',
      subject: 'run-crossings',
      meter: 'tokens',
      window: 'run',
      window_kind: 'run',
      limit: 10_000,
      spent: 10_000,
      reserved: 0,
      threshold: 1,
      level: 'block',
      next_action: 'ask for a budget increase',
      currency: null,
      crossed_by: 'settle',
    });
    expect(rows[0]!.artifact.spend_budget).toMatchObject({ spent: 8_000, level: 'advise', crossed_by: 'settle' });
    await expect(verifyTenantChain(api.database.pool, 'acme')).resolves.toEqual({ ok: true, checked: 3 });

    // One episode per budget and window: triggered by the advice, escalated by the page and the block.
    const steps = await api.database.pool.query<{ transition: string; level: string; episode_id: string }>(
      `SELECT transition, level, episode_id FROM episode_events WHERE tenant = 'acme' AND key_id = $1 ORDER BY seq`,
      [keyId],
    );
    expect(steps.rows).toEqual([
      { transition: 'triggered', level: 'advise', episode_id: episodeIdOf(keyId, 1) },
      { transition: 'escalated', level: 'page', episode_id: episodeIdOf(keyId, 1) },
      { transition: 'escalated', level: 'block', episode_id: episodeIdOf(keyId, 1) },
    ]);

    const view = (await (await api.as('acme', '/v1/dashboard/spend?subject=run-crossings')).json()) as {
      lines: unknown[];
    };
    expect(view.lines).toEqual([expect.objectContaining({ budgetId: 'run-tokens', spent: 10_000, usedRatio: 1 })]);
  });

  it('an outcome delivered again settles nothing and crosses nothing: no second intervention', async () => {
    const call = toolCall({
      agent: 'writer-bot',
      run: 'run-twice',
      callId: 'call-big',
      intentId: 'call-big',
      tool: 'llm.chat',
    });
    // One unreserved call of 8,500 tokens: charged on the run's line, crossing 80 % (advice) only.
    const reported = outcome(
      'acme',
      call,
      { status: 'succeeded', usage: { model: 'gpt-4o-mini', inputTokens: 8_000, outputTokens: 500 } },
      { id: 'evt-twice-outcome', time: '2026-01-05T10:00:05.000Z' },
    );
    const send = () => api.as('acme', '/v1/events', { body: reported });
    expect((await send()).status).toBe(202);
    expect((await send()).status).toBe(202);
    const { rows } = await api.database.pool.query<{ level: string }>(
      `SELECT level FROM interventions WHERE tenant = 'acme' AND key_id = 'budget|acme|run-tokens|run-twice|run'`,
    );
    expect(rows.map((r) => r.level)).toEqual(['advise']);
  });
});
