import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@tokencircuit/governance';
import { PreflightResponseSchema } from '@tokencircuit/api-http';
import { toolCall } from '@tokencircuit/contracts/testing';
import { ApiHarness } from '../api/support/api-harness.js';

/**
 * A call that declares no estimate reserves the tool's recent average (the mean of its tenant's last settled
 * calls, docs/budgets.md), not the policy's flat default, once the tool has a few settled calls (read again
 * at most every 10 s per tenant and tool).
 */
const policy = loadConfig({
  spend: {
    budgets: [{ id: 'run-tokens', per: 'run', meter: 'tokens', limit: 100_000 }],
    estimates: { default: { tokens: 5_000 } },
  },
});

describe('preflight estimates from the tool’s recent average (HTTP, real Postgres)', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await ApiHarness.start({ policy });
  });
  afterAll(async () => {
    await api?.close();
  });

  const held = async (callId: string) =>
    (
      await api.database.pool.query<{ amount: string }>(
        `SELECT (holds->0->>'a') AS amount FROM spend_reservations WHERE tenant = 'acme' AND call_id = $1`,
        [callId],
      )
    ).rows.map((r) => Number(r.amount));
  const preflight = async (run: string, callId: string, tool: string) => {
    const response = await api.as('acme', '/v1/preflight', {
      body: { call: toolCall({ run, callId, intentId: callId, tool }) },
    });
    expect(response.status).toBe(200);
    return PreflightResponseSchema.parse(await response.json());
  };
  const report = async (run: string, callId: string, tool: string, inputTokens: number) => {
    const outcome = {
      type: 'tool_call.outcome',
      id: `outcome-${callId}`,
      tenant: 'acme',
      time: api.now.toISOString(),
      data: {
        call: toolCall({ run, callId, intentId: callId, tool }),
        status: 'succeeded',
        usage: { model: 'gpt-4o-mini', inputTokens, outputTokens: 0 },
      },
    };
    expect((await api.as('acme', '/v1/events', { body: outcome })).status).toBe(202);
  };

  it('reserves the policy default until the tool has settled calls, then their mean (rounded up)', async () => {
    expect((await preflight('run-avg', 'first', 'llm.summarise')).allow).toBe(true);
    expect(await held('first')).toEqual([5_000]);
    await report('run-avg', 'first', 'llm.summarise', 300);
    await report('run-avg', 'second', 'llm.summarise', 500);
    await report('run-avg', 'third', 'llm.summarise', 401);
    // The API reuses a tool's average for RECENT_CACHE_MS (10 s), then reads it again behind the answers: the
    // first call after that is still answered with the figure it had, and starts the read; later calls get the new one.
    api.now = new Date(api.now.getTime() + 11_000);
    expect((await preflight('run-avg', 'fourth', 'llm.summarise')).allow).toBe(true);
    expect(await held('fourth')).toEqual([5_000]);
    let later = 0;
    await expect
      .poll(async () => {
        later += 1;
        expect((await preflight('run-avg', `later-${later}`, 'llm.summarise')).allow).toBe(true);
        return held(`later-${later}`);
      })
      .toEqual([401]);
    // Another tool of the same tenant has no history of its own: the default.
    expect((await preflight('run-avg', 'other', 'web.fetch')).allow).toBe(true);
    expect(await held('other')).toEqual([5_000]);
  });
});
