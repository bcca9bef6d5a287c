import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@tokencircuit/governance';
import { PreflightResponseSchema } from '@tokencircuit/api-http';
import { toolCall } from '@tokencircuit/contracts/testing';
import { ApiHarness } from '../api/support/api-harness.js';

/**
 * Reserve before spend, through HTTP and real Postgres: concurrent preflights of one run are judged one after
 * another on the budget's locked row, so together they never take more than the budget has left.
 */
const policy = loadConfig({
  spend: {
    budgets: [{ id: 'run-tokens', per: 'run', meter: 'tokens', limit: 10_000 }],
    reservationTtlSeconds: 60,
  },
});

describe('preflight reserves spend atomically (HTTP, real Postgres)', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await ApiHarness.start({
      policy,
      quotas: { API_PREFLIGHT_PER_SECOND: 100_000, API_PREFLIGHT_BURST: 100_000 },
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  /** A run whose budget row says `spent` tokens were used already (what earlier settled calls left). */
  async function nearlySpentRun(run: string, spent: number): Promise<void> {
    await api.database.pool.query(
      `INSERT INTO spend_lines (tenant, budget_id, subject, window_start, meter, limit_amount, spent)
       VALUES ('acme', 'run-tokens', $1, 'run', 'tokens', 10000, $2)`,
      [run, spent],
    );
  }
  const line = async (run: string) =>
    (
      await api.database.pool.query<{ spent: string; reserved: string }>(
        `SELECT spent, reserved FROM spend_lines WHERE tenant = 'acme' AND budget_id = 'run-tokens' AND subject = $1`,
        [run],
      )
    ).rows[0]!;
  const preflight = async (run: string, callId: string, tokens: number) => {
    const response = await api.as('acme', '/v1/preflight', {
      body: { call: toolCall({ run, callId, intentId: callId, tool: 'llm.chat' }), estimate: { tokens } },
    });
    expect(response.status).toBe(200);
    return PreflightResponseSchema.parse(await response.json());
  };

  it('200 concurrent preflights against 750 tokens left, 100 each: exactly 7 are allowed', async () => {
    await nearlySpentRun('run-crowd', 9_250);
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => preflight('run-crowd', `call-${i}`, 100)));
    const allowed = answers.filter((a) => a.allow);
    expect(allowed).toHaveLength(7);
    expect(await line('run-crowd')).toEqual({ spent: '9250', reserved: '700' });
    const blocked = answers.filter((a) => !a.allow);
    expect(blocked).toHaveLength(193);
    for (const answer of blocked) {
      expect(answer.budget?.level).toBe('block');
      expect(answer.budget?.artifact).toMatchObject({
        budget_id: 'run-tokens',
        subject: 'run-crowd',
        limit: 10_000,
        spent: 9_250,
        reserved: 700,
        estimate: 100,
        next_action: 'ask for a budget increase',
      });
      expect(answer.reason).toMatch(
        /^budget run-tokens of run run-crowd \(run run\) would pass its limit: .* next: ask for a budget increase$/,
      );
    }
    // The allowed ones were told they crossed 80 % and 90 % on the way.
    expect(allowed.every((a) => a.budget?.level === 'advise')).toBe(true);
  });

  it('a repeated preflight of the same call reserves nothing twice', async () => {
    await nearlySpentRun('run-repeat', 0);
    await preflight('run-repeat', 'call-once', 300);
    await preflight('run-repeat', 'call-once', 300);
    expect(await line('run-repeat')).toEqual({ spent: '0', reserved: '300' });
  });

  it('an outcome settles the actual usage and releases the rest; an unsettled reservation expires', async () => {
    await nearlySpentRun('run-settle', 9_000);
    expect((await preflight('run-settle', 'call-a', 600)).allow).toBe(true);
    expect((await preflight('run-settle', 'call-b', 400)).allow).toBe(true);
    expect((await preflight('run-settle', 'call-c', 1)).allow).toBe(false);
    const outcome = {
      type: 'tool_call.outcome',
      id: 'outcome-a',
      tenant: 'acme',
      time: api.now.toISOString(),
      data: {
        call: toolCall({ run: 'run-settle', callId: 'call-a', intentId: 'call-a', tool: 'llm.chat' }),
        status: 'succeeded',
        usage: { model: 'gpt-4o-mini', inputTokens: 250, outputTokens: 50 },
      },
    };
    expect((await api.as('acme', '/v1/events', { body: outcome })).status).toBe(202);
    expect(await line('run-settle')).toEqual({ spent: '9300', reserved: '400' });
    // Delivered twice: settled once.
    expect((await api.as('acme', '/v1/events', { body: outcome })).status).toBe(202);
    expect(await line('run-settle')).toEqual({ spent: '9300', reserved: '400' });
    // call-b never reports back; once its reservation expires, a refused preflight releases it.
    expect((await preflight('run-settle', 'call-d', 500)).allow).toBe(false);
    api.now = new Date(api.now.getTime() + 61_000);
    expect((await preflight('run-settle', 'call-d', 500)).allow).toBe(true);
    expect(await line('run-settle')).toEqual({ spent: '9300', reserved: '500' });
  });
});
