import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAgentEvent, type AgentEvent, type ToolCall, type ToolCallOutcome } from '@tokencircuit/contracts';
import { toolCall } from '@tokencircuit/contracts/testing';
import {
  coveringLines,
  estimateFor,
  holdsFor,
  loadConfig,
  reservationExpiresAt,
  tenantSpend,
} from '@tokencircuit/governance';
import {
  lockSpendLines,
  pgDatabase,
  recordReservation,
  SERVICE_ROLES,
  setServiceRolePasswords,
  settleOutcomes,
  spendLineRefOf,
  storedHoldsOf,
} from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { SpendExpirySweep } from '../../libs/decision-service/src/spend-expiry-sweep.js';

/**
 * Reservations never settled (the agent crashed) expire after the policy's TTL: the decision service's sweep,
 * logged in as its own role, releases them across tenants; one not yet due, or settled, is left alone; an
 * outcome that arrives after its reservation expired still spends what it reports.
 */
const policy = loadConfig({
  spend: { budgets: [{ id: 'run-tokens', per: 'run', meter: 'tokens', limit: 10_000 }], reservationTtlSeconds: 60 },
});
const spend = policy.spend!;
const PASSWORD = 'tc-test-service-role-password';
const ENV = Object.fromEntries(SERVICE_ROLES.map(({ passwordVariable }) => [passwordVariable, PASSWORD]));
const T0 = Date.parse('2026-01-05T10:00:00.000Z');

describe('unsettled reservations expire after the policy TTL (decision service sweep, real Postgres)', () => {
  let db: TestDatabase;
  let decisionPool: pg.Pool;

  beforeAll(async () => {
    db = await createTestDatabase('tc_spend_expiry');
    await setServiceRolePasswords(db.url, ENV);
    const url = new URL(db.url);
    url.username = 'tokencircuit_decision';
    url.password = PASSWORD;
    decisionPool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  });
  afterAll(async () => {
    await decisionPool?.end();
    await db?.drop();
  });

  const callOf = (run: string, callId: string): ToolCall =>
    (outcomeOf('acme', 'probe', toolCall({ run, callId, intentId: callId, tool: 'llm.chat' }), 0) as ToolCallOutcome)
      .data.call;

  function outcomeOf(tenant: string, id: string, call: unknown, tokens: number): AgentEvent {
    return parseAgentEvent({
      type: 'tool_call.outcome',
      id,
      tenant,
      time: new Date(T0).toISOString(),
      data: { call, status: 'succeeded', usage: { model: 'gpt-4o-mini', inputTokens: tokens, outputTokens: 0 } },
    });
  }

  /** What preflight does at `atMs`: lock the covering lines and record the holds, expiring after the TTL. */
  async function reserveAt(tenant: string, call: ToolCall, tokens: number, atMs: number): Promise<void> {
    const covering = coveringLines(tenantSpend(spend, tenant), tenant, call, atMs);
    const holds = holdsFor(covering, estimateFor(spend, call.tool, { tokens }));
    await pgDatabase(db.pool).transaction(async (tx) => {
      await lockSpendLines(tx, tenant, covering.map(spendLineRefOf));
      await recordReservation(tx, {
        tenant,
        run: call.run,
        callId: call.callId,
        agent: call.agent,
        tool: call.tool,
        holds: storedHoldsOf(covering, holds),
        createdAt: new Date(atMs).toISOString(),
        expiresAt: new Date(reservationExpiresAt(spend, atMs)).toISOString(),
      });
    });
  }

  const lineOf = async (tenant: string, run: string) => {
    const { rows } = await db.pool.query<{ spent: string; reserved: string }>(
      `SELECT spent, reserved FROM spend_lines WHERE tenant = $1 AND subject = $2`,
      [tenant, run],
    );
    return rows.map((r) => ({ spent: Number(r.spent), reserved: Number(r.reserved) }));
  };
  const stateOf = async (tenant: string, callId: string) =>
    (
      await db.pool.query<{ state: string }>(
        'SELECT state FROM spend_reservations WHERE tenant = $1 AND call_id = $2',
        [tenant, callId],
      )
    ).rows.map((r) => r.state);

  it('releases every due hold of every tenant, in batches, and leaves the rest', async () => {
    const crashedA = callOf('run-x', 'crashed-a');
    const crashedB = callOf('run-x', 'crashed-b');
    const fresh = callOf('run-x', 'fresh');
    const settled = callOf('run-x', 'settled');
    await reserveAt('acme', crashedA, 700, T0);
    await reserveAt('globex', crashedB, 300, T0);
    await reserveAt('acme', settled, 200, T0);
    await reserveAt('acme', fresh, 100, T0 + 30_000);
    await pgDatabase(db.pool).transaction((tx) =>
      settleOutcomes(tx, spend, [outcomeOf('acme', 'out-settled', settled, 150) as ToolCallOutcome]),
    );
    expect(await lineOf('acme', 'run-x')).toEqual([{ spent: 150, reserved: 800 }]);

    const sweep = new SpendExpirySweep(pgDatabase(decisionPool), 1);
    // One millisecond before the TTL: nothing is due yet.
    expect(await sweep.sweep(new Date(T0 + 59_999))).toBe(0);
    expect(await lineOf('acme', 'run-x')).toEqual([{ spent: 150, reserved: 800 }]);
    // At the TTL: both crashed calls (two tenants, one batch each), not the fresh one nor the settled one.
    expect(await sweep.sweep(new Date(T0 + 60_000))).toBe(2);
    expect(await lineOf('acme', 'run-x')).toEqual([{ spent: 150, reserved: 100 }]);
    expect(await lineOf('globex', 'run-x')).toEqual([{ spent: 0, reserved: 0 }]);
    expect(await stateOf('acme', 'crashed-a')).toEqual(['expired']);
    expect(await stateOf('acme', 'fresh')).toEqual(['held']);
    expect(await stateOf('acme', 'settled')).toEqual(['settled']);
    // A second sweep at the same instant releases nothing twice.
    expect(await sweep.sweep(new Date(T0 + 60_000))).toBe(0);
    expect(await lineOf('acme', 'run-x')).toEqual([{ spent: 150, reserved: 100 }]);
  });

  it('an outcome arriving after its reservation expired still spends what it reports, once', async () => {
    const late = callOf('run-late', 'late-1');
    await reserveAt('acme', late, 500, T0);
    expect(await new SpendExpirySweep(pgDatabase(decisionPool)).sweep(new Date(T0 + 61_000))).toBe(1);
    expect(await lineOf('acme', 'run-late')).toEqual([{ spent: 0, reserved: 0 }]);
    const outcome = outcomeOf('acme', 'out-late', late, 420) as ToolCallOutcome;
    await pgDatabase(db.pool).transaction((tx) => settleOutcomes(tx, spend, [outcome, outcome]));
    await pgDatabase(db.pool).transaction((tx) => settleOutcomes(tx, spend, [outcome]));
    expect(await lineOf('acme', 'run-late')).toEqual([{ spent: 420, reserved: 0 }]);
    expect(await stateOf('acme', 'late-1')).toEqual(['settled']);
  });
});
