import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDatabase } from '@tokencircuit/api-http';
import { parseAgentEvent, type ToolCallOutcome } from '@tokencircuit/contracts';
import { permissionDenied, timedOutAfterDispatch, toolCall } from '@tokencircuit/contracts/testing';
import { DEFAULT_CONFIG, redactCall } from '@tokencircuit/governance';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { seedFromEvents } from './support/seed.js';

/** A pool that counts the connections it hands out: a preflight answered from memory takes none. */
class CountingPool extends pg.Pool {
  connects = 0;
  // The promise form is the only one the API uses.
  override connect = ((...args: never[]) => {
    this.connects += 1;
    return (pg.Pool.prototype.connect as (...a: never[]) => unknown).apply(this, args);
  }) as pg.Pool['connect'];
}

/**
 * The API's preflight cache on real Postgres: failure_state's statement triggers (migration 0046) announce what
 * changed, so a cached selection is dropped when the projector (here: the same rows written directly) changes a
 * state at its run or principal, and only then.
 */
describe('preflight candidates from memory, dropped by failure_state notifications (real Postgres)', () => {
  let database: TestDatabase;
  let pool: CountingPool;
  let db: ReturnType<typeof apiDatabase>;

  const waitFor = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const value = await read();
      if (done(value) || Date.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  const candidates = (call: ReturnType<typeof toolCall>) =>
    db.states.candidates('acme', redactCall((parseAgentEvent(permissionDenied('acme', call)) as ToolCallOutcome).data.call));

  /** Asks until an answer takes no connection (the cache is live and holds this selection). */
  const untilFromMemory = async (call: ReturnType<typeof toolCall>) => {
    await waitFor(
      async () => {
        await candidates(call);
        const before = pool.connects;
        await candidates(call);
        return pool.connects === before;
      },
      (fromMemory) => fromMemory,
    );
  };

  beforeAll(async () => {
    database = await createTestDatabase('tc_pf_cache');
    pool = new CountingPool({ connectionString: database.url, max: 4 });
    db = apiDatabase(pool);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  const runCall = toolCall({ agent: 'billing-bot', run: 'run-cache-1', tool: 'create_invoice', effect: 'write',
    httpMethod: 'POST', resourceClass: 'api_endpoint', resourceId: null, authScope: 'invoices:write',
    principal: 'svc-billing', sqlStatement: null, arguments: { customer: 'c-42' } });
  const fleetCall = toolCall({ agent: 'agent-a', run: 'run-cache-2', principal: 'svc-reporting', resourceId: 'finance.salaries' });

  it('answers a repeated selection from memory once the notifications are received', async () => {
    expect(await candidates(runCall)).toEqual([]);
    await untilFromMemory(runCall);
    const before = pool.connects;
    for (let i = 0; i < 20; i++) expect(await candidates(runCall)).toEqual([]);
    expect(pool.connects).toBe(before);
  });

  it("drops a cached run selection when a state of that run is written, and serves the new state", async () => {
    await untilFromMemory(runCall);
    await untilFromMemory(fleetCall);
    await seedFromEvents(database.pool, [timedOutAfterDispatch('acme', runCall)], DEFAULT_CONFIG);
    const states = await waitFor(() => candidates(runCall), (s) => s.length > 0);
    expect(states.map((s) => s.failureClass)).toEqual(['ambiguous_effect']);
    // Another run and principal were not touched: still answered from memory.
    const before = pool.connects;
    expect(await candidates(fleetCall)).toEqual([]);
    expect(pool.connects).toBe(before);
  });

  it('drops every cached selection of a principal when its fleet-wide state is written', async () => {
    const otherRun = { ...fleetCall, run: 'run-cache-3' };
    await untilFromMemory(fleetCall);
    await untilFromMemory(otherRun);
    await seedFromEvents(database.pool, [permissionDenied('acme', fleetCall)], DEFAULT_CONFIG);
    const forOtherRun = await waitFor(() => candidates(otherRun), (s) => s.length > 0);
    expect(forOtherRun.map((s) => [s.key.scope, s.status])).toEqual([['fleet', 'blocked']]);
    const forFirstRun = await candidates(fleetCall);
    expect(forFirstRun.map((s) => s.key.scope)).toEqual(['fleet']);
  });

  it('an update of an existing state is announced too (the projector upserts)', async () => {
    await untilFromMemory(runCall);
    await database.pool.query(`UPDATE failure_state SET status = 'resolved', state = jsonb_set(state::jsonb, '{status}', '"resolved"')::json
      WHERE run = 'run-cache-1'`);
    const states = await waitFor(() => candidates(runCall), (s) => s.length === 0 || s[0]!.status === 'resolved');
    expect(states.every((s) => s.status === 'resolved')).toBe(true);
  });

  it('forgets what it kept when its LISTEN connection is lost, and answers from memory again once it listens anew', async () => {
    const lostCall = { ...runCall, run: 'run-cache-4', callId: 'c-5' };
    await untilFromMemory(lostCall);
    expect(await candidates(lostCall)).toEqual([]);
    await database.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`,
    );
    // A state written while nobody listens: no notification will say the kept answer is stale.
    await seedFromEvents(database.pool, [timedOutAfterDispatch('acme', { ...lostCall, callId: 'c-4' })], DEFAULT_CONFIG);
    const states = await waitFor(() => candidates(lostCall), (s) => s.length > 0);
    expect(states.map((s) => s.failureClass)).toEqual(['ambiguous_effect']);
    // Listening again (reconnected after a second): repeated asks stop taking connections.
    await untilFromMemory(lostCall);
    const before = pool.connects;
    expect((await candidates(lostCall)).map((s) => s.failureClass)).toEqual(['ambiguous_effect']);
    expect(pool.connects).toBe(before);
  });
});
