import pg from 'pg';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAgentEvent, ToolCallSchema, type ToolCall, type ToolCallOutcome } from '@tokencircuit/contracts';
import { toolCall } from '@tokencircuit/contracts/testing';
import { LEASE_TTL_MS, loadConfig } from '@tokencircuit/governance';
import { apiDatabase, type ApiDatabase } from '@tokencircuit/api-http';
import { pgDatabase, SERVICE_ROLES, setServiceRolePasswords, settleOutcomes } from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { SpendExpirySweep } from '../../libs/decision-service/src/spend-expiry-sweep.js';
import { SpendLedger } from '../../libs/api-http/src/spend/spend-ledger.js';
import { SpendMetrics } from '../../libs/api-http/src/spend/spend-metrics.js';

/**
 * Leases of line room (docs/budgets.md, "Leases"), through real Postgres as the API's own role: two ledgers (two
 * API processes' worth) serve preflights of one tenant-wide line from leases, and together never pass its limit;
 * what they served from memory is written and settled exactly once; a crashed process's leases expire.
 */
const PASSWORD = 'tc-test-service-role-password';
const ENV = Object.fromEntries(SERVICE_ROLES.map(({ passwordVariable }) => [passwordVariable, PASSWORD]));
const LIMIT = 1_000;
const policy = loadConfig({
  spend: {
    budgets: [
      { id: 'tenant-calls', per: 'tenant', meter: 'calls', limit: LIMIT },
      { id: 'run-tokens', per: 'run', meter: 'tokens', limit: 10_000_000 },
    ],
    estimates: { default: { tokens: 100 } },
    reservationTtlSeconds: 600,
  },
}).spend!;

/** The API's database, counting the round trips of the spend ledger and able to fail them all (a crash). */
function counted(inner: ApiDatabase): ApiDatabase & { trips: number; cut: boolean } {
  const db = {
    trips: 0,
    cut: false,
    states: inner.states,
    tenants: inner.tenants,
    spend: {
      write: <T>(tenant: string, work: Parameters<ApiDatabase['spend']['write']>[1]): Promise<T> => {
        if (db.cut) return Promise.reject(new Error('process gone'));
        db.trips += 1;
        return inner.spend.write(tenant, work) as Promise<T>;
      },
      atOnce: (tenant: string, statement: (literal: (value: string) => string) => string) => {
        if (db.cut) return Promise.reject(new Error('process gone'));
        db.trips += 1;
        return inner.spend.atOnce!(tenant, statement);
      },
    },
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
  return db;
}

describe('leases of line room across API processes (real Postgres, the API role)', () => {
  let db: TestDatabase;
  let apiUrl: string;
  const pools: pg.Pool[] = [];
  const clock = Date.parse('2026-01-05T10:00:00.000Z');
  const now = () => new Date(clock);

  beforeAll(async () => {
    db = await createTestDatabase('tc_spend_leases');
    await setServiceRolePasswords(db.url, ENV);
    const url = new URL(db.url);
    url.username = 'tokencircuit_api';
    url.password = PASSWORD;
    apiUrl = url.toString();
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await db?.drop();
  });

  /** One API process's ledger, with leases, over its own pool. */
  function process(leaseFlushMs?: number): {
    ledger: SpendLedger;
    db: ReturnType<typeof counted>;
    metrics: SpendMetrics;
  } {
    const pool = new pg.Pool({ connectionString: apiUrl, max: 4 });
    pools.push(pool);
    const spendDb = counted(apiDatabase(pool));
    const metrics = new SpendMetrics(new Registry());
    const ledger = new SpendLedger(spendDb, policy, metrics, 'test-policy', null, {
      leases: true,
      clock: now,
      ...(leaseFlushMs === undefined ? {} : { leaseFlushMs }),
    });
    return { ledger, db: spendDb, metrics };
  }

  const callOf = (tenant: string, run: string, callId: string): ToolCall =>
    ToolCallSchema.parse(toolCall({ run, callId, intentId: callId, tool: 'llm.chat' }));
  const outcomeOf = (tenant: string, call: ToolCall, tokens: number): ToolCallOutcome =>
    parseAgentEvent({
      type: 'tool_call.outcome',
      id: `out-${call.callId}`,
      tenant,
      time: now().toISOString(),
      data: { call, status: 'succeeded', usage: { model: 'gpt-4o-mini', inputTokens: tokens, outputTokens: 0 } },
    }) as ToolCallOutcome;

  const tenantLine = async (tenant: string) => {
    const { rows } = await db.pool.query<{ spent: string; reserved: string }>(
      `SELECT spent, reserved FROM spend_lines WHERE tenant = $1 AND budget_id = 'tenant-calls'`,
      [tenant],
    );
    return { spent: Number(rows[0]!.spent), reserved: Number(rows[0]!.reserved) };
  };
  const count = async (sql: string, params: unknown[]) =>
    Number((await db.pool.query<{ n: string }>(sql, params)).rows[0]!.n);
  const held = (tenant: string) =>
    count(`SELECT count(*) AS n FROM spend_reservations WHERE tenant = $1 AND state = 'held'`, [tenant]);
  const leaseRows = (tenant: string) => count(`SELECT count(*) AS n FROM spend_leases WHERE tenant = $1`, [tenant]);
  const settled = (tenant: string) =>
    count(`SELECT count(*) AS n FROM spend_reservations WHERE tenant = $1 AND state IN ('settled', 'unreserved')`, [
      tenant,
    ]);

  /**
   * 14 waves of 100 concurrent preflights (call n in run `runOf(n)`), alternating the two processes; whether each
   * was allowed. Between waves the background takes and flushes run, as time passes between requests.
   */
  async function waves(
    tenant: string,
    [a, b]: readonly [{ ledger: SpendLedger }, { ledger: SpendLedger }],
    runOf: (n: number) => string,
  ): Promise<boolean[]> {
    const allowed: boolean[] = [];
    for (let wave = 0; wave < 14; wave++) {
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) => {
          const n = wave * 100 + i;
          const { ledger } = n % 2 === 0 ? a : b;
          return ledger.reserve(tenant, callOf(tenant, runOf(n), `call-${n}`), {}, now());
        }),
      );
      allowed.push(...answers.map((v) => v!.level !== 'block'));
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    return allowed;
  }

  it('given two processes leasing one tenant-wide line, when 1,400 calls ask for 1,000 calls of room, then at most 1,000 are allowed, and every allowed one is one held reservation', async () => {
    const a = process();
    const b = process();
    // Over 8 runs: a line is leased once this process reserved on it twice.
    const allowed = await waves('acme', [a, b], (n) => `run-${n % 8}`);
    const yes = allowed.filter(Boolean).length;
    expect(yes).toBeLessThanOrEqual(LIMIT);
    // The line is never over its limit, leases included, at any point we can see.
    expect((await tenantLine('acme')).reserved).toBeLessThanOrEqual(LIMIT);
    await a.ledger.close();
    await b.ledger.close();
    // Closed: every lease returned, every served call written once.
    expect(await leaseRows('acme')).toBe(0);
    expect(await held('acme')).toBe(yes);
    expect(await tenantLine('acme')).toEqual({ spent: 0, reserved: yes });
    // Leases served most calls without a round trip, yet near the limit the exact path refused (room leased by the
    // other process that it had not used may refuse a few early: at most what the two held when the refusals began).
    const fromLease = async (p: { metrics: SpendMetrics }) => (await p.metrics.fromLease.get()).values[0]!.value;
    const served = (await fromLease(a)) + (await fromLease(b));
    expect(served).toBeGreaterThan(yes / 2);
    expect(yes).toBeGreaterThan(LIMIT - 2 * 256);
  });

  it('given a leased tenant-wide line, when every call is a new run’s first, then one statement reserves each run’s line and takes the tenant hold out of the lease (the tenant line untouched); two processes together still allow at most its limit', async () => {
    const tenant = 'hooli';
    const a = process();
    const b = process();
    // Two calls of one run on each process: the tenant line is reserved twice, so each process leases it.
    for (const [k, p] of [a, b].entries())
      for (const n of [0, 1])
        await p.ledger.reserve(tenant, callOf(tenant, `warm-${k}-${n}`, `warm-${k}-${n}`), {}, now());
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await leaseRows(tenant)).toBe(2);
    const { rows: untouched } = await db.pool.query<{ updated_at: Date }>(
      `SELECT updated_at FROM spend_lines WHERE tenant = $1 AND budget_id = 'tenant-calls'`,
      [tenant],
    );
    const first = await a.ledger.reserve(tenant, callOf(tenant, 'fresh-run', 'fresh-1'), {}, now());
    expect(first!.level).not.toBe('block');
    const { rows: after } = await db.pool.query<{ updated_at: Date }>(
      `SELECT updated_at FROM spend_lines WHERE tenant = $1 AND budget_id = 'tenant-calls'`,
      [tenant],
    );
    expect(after[0]!.updated_at).toEqual(untouched[0]!.updated_at);
    const { rows: reservation } = await db.pool.query<{ holds: { b: string }[] }>(
      `SELECT holds FROM spend_reservations WHERE tenant = $1 AND call_id = 'fresh-1'`,
      [tenant],
    );
    expect(reservation[0]!.holds.map((h) => h.b).sort()).toEqual(['run-tokens', 'tenant-calls']);

    const allowed = await waves(tenant, [a, b], (n) => `new-run-${n}`);
    const yes = allowed.filter(Boolean).length + 5; // the warm-up calls and the fresh run's
    expect(yes).toBeLessThanOrEqual(LIMIT);
    expect((await tenantLine(tenant)).reserved).toBeLessThanOrEqual(LIMIT);
    await a.ledger.close();
    await b.ledger.close();
    expect(await leaseRows(tenant)).toBe(0);
    expect(await held(tenant)).toBe(yes);
    expect(await tenantLine(tenant)).toEqual({ spent: 0, reserved: yes });
    expect(yes).toBeGreaterThan(LIMIT - 2 * 256);
    // Most of the new runs' calls took their tenant hold from a lease (the rest went to the line itself).
    const inPart = async (p: { metrics: SpendMetrics }) => (await p.metrics.fromLeaseInPart.get()).values[0]!.value;
    expect((await inPart(a)) + (await inPart(b))).toBeGreaterThan(yes / 2);
  });

  it('given a call served from a lease and not written yet, its settle writes it first and counts it once; a settle by the projector first charges it, and the flush then writes nothing for it', async () => {
    // Flushes only when asked (a settle, the close): the projector's settle below races an unwritten reservation.
    const p = process(3_600_000);
    // The first two calls take the exact path, the second leases its lines (seen again); the next ones are served
    // from memory.
    await p.ledger.reserve('globex', callOf('globex', 'run-s', 'warm'), {}, now());
    await p.ledger.reserve('globex', callOf('globex', 'run-s', 'warm-2'), {}, now());
    await new Promise((resolve) => setTimeout(resolve, 100)); // the background lease
    const trips = p.db.trips;
    const served = callOf('globex', 'run-s', 'from-lease');
    expect((await p.ledger.reserve('globex', served, {}, now()))!.level).toBe('ok');
    expect(p.db.trips).toBe(trips); // answered from memory
    await p.ledger.settle(outcomeOf('globex', served, 250), now());
    await p.ledger.settle(outcomeOf('globex', served, 250), now());
    const state = async (callId: string) =>
      (
        await db.pool.query<{ state: string; tokens: string | null }>(
          `SELECT state, actual->>'tokens' AS tokens FROM spend_reservations WHERE tenant = 'globex' AND call_id = $1`,
          [callId],
        )
      ).rows;
    expect(await state('from-lease')).toEqual([{ state: 'settled', tokens: '250' }]);

    // The projector settles a call this process served and has not written yet (it reserved nothing, as far as
    // Postgres knows): charged as reported; the flush then finds the call recorded and writes nothing for it.
    const raced = callOf('globex', 'run-s', 'raced');
    expect((await p.ledger.reserve('globex', raced, {}, now()))!.level).toBe('ok');
    await pgDatabase(db.pool).transaction((tx) => settleOutcomes(tx, policy, [outcomeOf('globex', raced, 400)]));
    await p.ledger.close();
    expect(await state('raced')).toEqual([{ state: 'unreserved', tokens: '400' }]);
    expect(await leaseRows('globex')).toBe(0);
    // warm and warm-2 held (1 call each); the two settled calls spent 1 call each; nothing else is held.
    expect(await tenantLine('globex')).toEqual({ spent: 2, reserved: 2 });
    expect(await settled('globex')).toBe(2);
  });

  it('given a process that crashes with leases and unwritten reservations, when its leases expire, the sweep releases them and the calls it lost are charged when they report', async () => {
    const crashed = process();
    await crashed.ledger.reserve('initech', callOf('initech', 'run-c', 'first'), {}, now());
    await crashed.ledger.reserve('initech', callOf('initech', 'run-c', 'second'), {}, now());
    await new Promise((resolve) => setTimeout(resolve, 100));
    const lost = callOf('initech', 'run-c', 'lost');
    expect((await crashed.ledger.reserve('initech', lost, {}, now()))!.level).toBe('ok');
    crashed.db.cut = true; // nothing more reaches Postgres from it: no flush, no return
    const line = await tenantLine('initech');
    // The lease is still counted: 2 held calls plus the leased room.
    expect(line.reserved).toBeGreaterThan(2);
    expect(await leaseRows('initech')).toBe(2); // the tenant's line and the run's

    const url = new URL(db.url);
    url.username = 'tokencircuit_decision';
    url.password = PASSWORD;
    const decision = new pg.Pool({ connectionString: url.toString(), max: 1 });
    pools.push(decision);
    const sweep = new SpendExpirySweep(pgDatabase(decision));
    await sweep.sweep(new Date(clock + LEASE_TTL_MS - 1));
    expect(await leaseRows('initech')).toBe(2);
    await sweep.sweep(new Date(clock + LEASE_TTL_MS));
    expect(await leaseRows('initech')).toBe(0);
    expect(await tenantLine('initech')).toEqual({ spent: 0, reserved: 2 });

    // The lost call reports back through another process: charged on the lines, as a call that reserved nothing.
    const other = process();
    await other.ledger.settle(outcomeOf('initech', lost, 90), now());
    expect(await tenantLine('initech')).toEqual({ spent: 1, reserved: 2 });
    await other.ledger.close();
    await crashed.ledger.close();
  });
});
