import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEventInput } from '@tokencircuit/contracts';
import { permissionDenied, toolCall } from '@tokencircuit/contracts/testing';
import { loadConfig } from '@tokencircuit/governance';
import { ApiHarness } from '../api/support/api-harness.js';
import { seedFromEvents } from '../api/support/seed.js';

/**
 * Spend caused by each failure class and key ("the retries of this key cost …"): outcomes that report usage are
 * settled by POST /v1/events (the real API, its own Postgres role), the failure state the projector folds from
 * the same events is written by the real core, and GET /v1/dashboard/spend joins the two.
 */
const policy = loadConfig({
  spend: { budgets: [{ id: 'tenant-usd', per: 'tenant', meter: 'cost', limit: 100 }] },
});

describe('spend per failure class and key (HTTP, real Postgres)', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await ApiHarness.start({ policy });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('three denied attempts of one key, each reporting model usage, add up under that key; a success adds nothing', async () => {
    const attempt = (n: number): AgentEventInput => {
      const denied = permissionDenied(
        'acme',
        toolCall({ run: 'run-denied', callId: `deny-${n}`, intentId: `deny-${n}`, tool: 'sql.query' }),
        `2026-01-05T10:00:0${n}.000Z`,
      );
      const data = denied.data as Record<string, unknown>;
      return {
        ...denied,
        data: { ...data, usage: { model: 'gpt-4o-mini', inputTokens: 1_000, outputTokens: 100 } },
      } as AgentEventInput;
    };
    const ok: AgentEventInput = {
      type: 'tool_call.outcome',
      id: 'ok-1',
      tenant: 'acme',
      time: '2026-01-05T10:00:04.000Z',
      data: {
        call: toolCall({ run: 'run-denied', callId: 'ok-1', intentId: 'ok-1', tool: 'report.render' }),
        status: 'succeeded',
        usage: { model: 'gpt-4o-mini', inputTokens: 500, outputTokens: 0 },
      },
    } as AgentEventInput;
    const inputs = [attempt(1), attempt(2), attempt(3), ok];
    const accepted = await api.as('acme', '/v1/events', { body: { events: inputs } });
    expect(accepted.status).toBe(202);
    const { states } = await seedFromEvents(api.database.pool, inputs, policy);
    const key = states.find((s) => s.key.equivalenceKey.tool_name === 'sql.query')!;
    expect(key.failureClass).toBe('permission');

    const response = await api.as('acme', '/v1/dashboard/spend');
    const view = (await response.json()) as { byFailure: unknown[] };
    expect(response.status, JSON.stringify(view)).toBe(200);
    // 1,000 input × 0.15 + 100 output × 0.6 micro-dollars per attempt (gpt-4o-mini), three attempts counted by the key.
    expect(view.byFailure).toEqual([
      {
        failureClass: 'permission',
        keyId: key.keyId,
        tool: 'sql.query',
        status: key.status,
        calls: 3,
        tokens: 3_300,
        cost: 630,
      },
    ]);
    // The success that resolved the key is one of its calls, but another tool's: its spend is not the key's.
    expect(key.seenCallIds).toEqual(['deny-1', 'deny-2', 'deny-3', 'ok-1']);
    const other = (await (await api.as('globex', '/v1/dashboard/spend')).json()) as { byFailure: unknown[] };
    expect(other.byFailure).toEqual([]);
  });
});
