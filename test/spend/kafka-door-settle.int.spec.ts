import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAgentEvent, type AgentEvent, type ToolCall } from '@tokencircuit/contracts';
import { toolCall } from '@tokencircuit/contracts/testing';
import { coveringLines, estimateFor, holdsFor, loadConfig, tenantSpend } from '@tokencircuit/governance';
import { lockSpendLines, pgDatabase, recordReservation, spendLineRefOf, storedHoldsOf } from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { startKafkaDoor, type KafkaDoor } from './support/kafka-door.js';

/**
 * The Kafka door (issue 31): an agent that publishes its outcomes to Kafka itself, never through POST /v1/events,
 * has them settled by the projector, in the transaction that folds them, logged in as the projector's own role.
 * Settled totals equal the reported usage, and a record delivered twice is counted once.
 */
const policy = loadConfig({
  spend: {
    budgets: [
      { id: 'run-tokens', per: 'run', meter: 'tokens', limit: 10_000 },
      { id: 'tenant-calls', per: 'tenant', meter: 'calls', limit: 1_000 },
    ],
    reservationTtlSeconds: 600,
  },
});
const NOW = '2026-01-05T10:00:00.000Z';

describe('outcomes published straight to Kafka settle their spend in the projector', () => {
  let db: TestDatabase;
  let door: KafkaDoor;
  const publish = (...events: AgentEvent[]) => door.publish(...events);

  beforeAll(async () => {
    db = await createTestDatabase('tc_spend_kafka_door');
    door = await startKafkaDoor(db, policy, 'spend-door');
  });
  afterAll(async () => {
    await door?.stop();
    await db?.drop();
  });

  /** What preflight would have reserved for `call` (the API's path: covering lines locked, the holds recorded). */
  async function reserveAsPreflight(call: ToolCall, tokens: number): Promise<void> {
    const spend = policy.spend!;
    const covering = coveringLines(tenantSpend(spend, 'acme'), 'acme', call, Date.parse(NOW));
    const holds = holdsFor(covering, estimateFor(spend, call.tool, { tokens }));
    await pgDatabase(db.pool).transaction(async (tx) => {
      await lockSpendLines(tx, 'acme', covering.map(spendLineRefOf));
      await recordReservation(tx, {
        tenant: 'acme',
        run: call.run,
        callId: call.callId,
        agent: call.agent,
        tool: call.tool,
        holds: storedHoldsOf(covering, holds),
        createdAt: NOW,
        expiresAt: new Date(Date.parse(NOW) + 600_000).toISOString(),
      });
    });
  }

  const outcome = (
    id: string,
    call: ToolCall | ReturnType<typeof toolCall>,
    inputTokens: number,
    outputTokens: number,
  ): AgentEvent =>
    parseAgentEvent({
      type: 'tool_call.outcome',
      id,
      tenant: 'acme',
      time: NOW,
      data: { call, status: 'succeeded', usage: { model: 'gpt-4o-mini', inputTokens, outputTokens } },
    });

  /** A call as the contract completes it (defaults filled in). */
  const callOf = (run: string, callId: string): ToolCall =>
    (
      outcome(
        `probe-${callId}`,
        toolCall({ run, callId, intentId: callId, tool: 'llm.chat' }) as ToolCall,
        0,
        0,
      ) as Extract<AgentEvent, { type: 'tool_call.outcome' }>
    ).data.call;

  const lineOf = async (budget: string, subject: string) => {
    const { rows } = await db.pool.query<{ spent: string; reserved: string }>(
      `SELECT spent, reserved FROM spend_lines WHERE tenant = 'acme' AND budget_id = $1 AND subject = $2`,
      [budget, subject],
    );
    return rows.map((r) => ({ spent: Number(r.spent), reserved: Number(r.reserved) }));
  };

  it('settles a reserved call and charges an unreserved one: settled totals equal the reported usage', async () => {
    const call1 = callOf('run-door', 'door-1');
    const call2 = callOf('run-door', 'door-2');
    await reserveAsPreflight(call1, 900);
    expect(await lineOf('run-tokens', 'run-door')).toEqual([{ spent: 0, reserved: 900 }]);

    await publish(outcome('out-door-1', call1, 300, 120), outcome('out-door-2', call2, 50, 30));

    // 420 + 80 tokens reported; the 900 held for door-1 released.
    expect(await lineOf('run-tokens', 'run-door')).toEqual([{ spent: 500, reserved: 0 }]);
    expect(await lineOf('tenant-calls', 'acme')).toEqual([{ spent: 2, reserved: 0 }]);
    const { rows } = await db.pool.query<{ call_id: string; state: string; tokens: string }>(
      `SELECT call_id, state, actual->>'tokens' AS tokens FROM spend_reservations WHERE run = 'run-door' ORDER BY call_id`,
    );
    expect(rows).toEqual([
      { call_id: 'door-1', state: 'settled', tokens: '420' },
      { call_id: 'door-2', state: 'unreserved', tokens: '80' },
    ]);
  });

  it('a record delivered twice, and the same call reported again under another id, is counted once', async () => {
    const parsedCall = callOf('run-again', 'again-1');
    await reserveAsPreflight(parsedCall, 500);
    const once = outcome('out-again-1', parsedCall, 200, 100);
    // The same record twice in one fetch (a producer's retry), then again in a later one (a redelivery).
    await publish(once, once);
    await publish(once);
    // The HTTP door's copy of the same report (another event id, the same call) settles nothing more.
    await publish(outcome('out-again-http', parsedCall, 200, 100));
    expect(await lineOf('run-tokens', 'run-again')).toEqual([{ spent: 300, reserved: 0 }]);
    const { rows } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM agent_events WHERE run = 'run-again'`,
    );
    expect(rows[0]!.n).toBe(2);
  });

  it('a settle through the Kafka door that crosses a threshold appends the budget intervention and its episode step', async () => {
    const call = callOf('run-cross', 'cross-1');
    // 8,500 of the run's 10,000 tokens in one unreserved call: past the default 80 % advice, short of the limit.
    await publish(outcome('out-cross-1', call, 8_000, 500));
    const keyId = 'budget|acme|run-tokens|run-cross|run';
    const { rows } = await db.pool.query<{ level: string; run: string }>(
      `SELECT level, run FROM interventions WHERE tenant = 'acme' AND key_id = $1`,
      [keyId],
    );
    expect(rows).toEqual([{ level: 'advise', run: 'run-cross' }]);
    const steps = await db.pool.query<{ transition: string; level: string }>(
      `SELECT transition, level FROM episode_events WHERE tenant = 'acme' AND key_id = $1 ORDER BY seq`,
      [keyId],
    );
    expect(steps.rows).toEqual([{ transition: 'triggered', level: 'advise' }]);
    // Delivered again: settled once, crossed once.
    await publish(outcome('out-cross-1', call, 8_000, 500));
    expect(await lineOf('run-tokens', 'run-cross')).toEqual([{ spent: 8_500, reserved: 0 }]);
    expect(
      (await db.pool.query(`SELECT 1 FROM interventions WHERE tenant = 'acme' AND key_id = $1`, [keyId])).rows,
    ).toHaveLength(1);
  });
});
