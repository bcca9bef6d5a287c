import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@tokencircuit/governance';
import { PreflightResponseSchema } from '@tokencircuit/api-http';
import { toolCall } from '@tokencircuit/contracts/testing';
import { ApiHarness } from '../api/support/api-harness.js';

/**
 * Preflight with leases of line room on (API_SPEND_LEASES, docs/budgets.md "Leases"), through HTTP and real
 * Postgres: near the limit every call is still judged exactly on the row; with room, calls are served from a lease
 * and the outcome posted to /v1/events settles the reservation the same process served, once.
 */
const policy = loadConfig({
  spend: {
    budgets: [{ id: 'run-tokens', per: 'run', meter: 'tokens', limit: 10_000 }],
    reservationTtlSeconds: 60,
  },
});

describe('preflight with leases on (HTTP, real Postgres)', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await ApiHarness.start({
      policy,
      spendLeases: true,
      quotas: { API_PREFLIGHT_PER_SECOND: 100_000, API_PREFLIGHT_BURST: 100_000 },
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  const preflight = async (run: string, callId: string, tokens: number) => {
    const response = await api.as('acme', '/v1/preflight', {
      body: { call: toolCall({ run, callId, intentId: callId, tool: 'llm.chat' }), estimate: { tokens } },
    });
    expect(response.status).toBe(200);
    return PreflightResponseSchema.parse(await response.json());
  };
  const fromLease = async () =>
    Number(
      /tokencircuit_spend_reservations_from_lease_total (\d+)/.exec(await (await api.request('/metrics')).text())?.[1],
    );

  it('given 750 tokens left, 200 concurrent preflights of 100 each: exactly 7 are allowed (no lease near the limit)', async () => {
    await api.database.pool.query(
      `INSERT INTO spend_lines (tenant, budget_id, subject, window_start, meter, limit_amount, spent)
       VALUES ('acme', 'run-tokens', 'run-crowd', 'run', 'tokens', 10000, 9250)`,
    );
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => preflight('run-crowd', `call-${i}`, 100)));
    expect(answers.filter((a) => a.allow)).toHaveLength(7);
    const { rows } = await api.database.pool.query(
      `SELECT spent::int, reserved::int FROM spend_lines WHERE tenant = 'acme' AND subject = 'run-crowd'`,
    );
    expect(rows).toEqual([{ spent: 9_250, reserved: 700 }]);
  });

  it('given room, serves calls from a lease; the outcome of one settles its reservation once', async () => {
    const before = await fromLease();
    // Two calls on the exact path (the second leases the run's line), then calls served from memory.
    await preflight('run-busy', 'warm-1', 10);
    await preflight('run-busy', 'warm-2', 10);
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (let i = 0; i < 5; i++) expect((await preflight('run-busy', `call-${i}`, 10)).allow).toBe(true);
    expect((await fromLease()) - before).toBe(5);
    const outcome = {
      type: 'tool_call.outcome',
      id: 'outcome-busy-0',
      tenant: 'acme',
      time: api.now.toISOString(),
      data: {
        call: toolCall({ run: 'run-busy', callId: 'call-0', intentId: 'call-0', tool: 'llm.chat' }),
        status: 'succeeded',
        usage: { model: 'gpt-4o-mini', inputTokens: 7, outputTokens: 1 },
      },
    };
    expect((await api.as('acme', '/v1/events', { body: outcome })).status).toBe(202);
    expect((await api.as('acme', '/v1/events', { body: outcome })).status).toBe(202);
    const { rows } = await api.database.pool.query(
      `SELECT call_id, state, actual->>'tokens' AS tokens FROM spend_reservations
        WHERE tenant = 'acme' AND run = 'run-busy' AND state <> 'held' ORDER BY call_id`,
    );
    expect(rows).toEqual([{ call_id: 'call-0', state: 'settled', tokens: '8' }]);
    const line = await api.database.pool.query(
      `SELECT spent::int FROM spend_lines WHERE tenant = 'acme' AND subject = 'run-busy'`,
    );
    expect(line.rows).toEqual([{ spent: 8 }]);
  });
});
