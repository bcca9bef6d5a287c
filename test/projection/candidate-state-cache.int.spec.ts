import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '@tokencircuit/contracts';
import { createGovernance, DEFAULT_CONFIG, type FailureState } from '@tokencircuit/governance';
import { pgDatabase, stateKeyColumns, stateOfRow, type SqlDatabase, type StateKeyColumns } from '@tokencircuit/storage';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import { acceptedEvent } from '../../libs/projection/src/decode.js';
import { CandidateStateCache } from '../../libs/projection/src/candidate-state-cache.js';
import { ProjectionPipeline } from '../../libs/projection/src/projection-pipeline.js';
import type { StateCoordinates } from '@tokencircuit/storage';

const TOPIC = 'tokencircuit.agent-events.v1';
const governance = createGovernance(DEFAULT_CONFIG);

/** A cache that counts the held states a load took instead of a document (deep-frozen: a change in place throws). */
class CountingCache extends CandidateStateCache {
  served = 0;
  constructor(capacity: number) {
    super(capacity, true);
  }
  override known(at: StateCoordinates): Map<string, FailureState> {
    const found = super.known(at);
    const get = found.get.bind(found);
    found.get = (keyId: string) => {
      const state = get(keyId);
      if (state !== undefined) this.served += 1;
      return state;
    };
    return found;
  }
}

describe('CandidateStateCache in the projection pipeline (real Postgres)', () => {
  let test: TestDatabase;
  let db: SqlDatabase;
  beforeAll(async () => {
    test = await createTestDatabase('projection_state_cache');
    db = pgDatabase(test.pool);
  });
  afterAll(async () => {
    await test?.drop();
  });

  async function storedStates(prefix: string) {
    const { rows } = await db.query<{ state: unknown } & StateKeyColumns>(
      `SELECT state, ${stateKeyColumns()} FROM failure_state WHERE tenant LIKE $1 || '-%'`,
      [prefix],
    );
    return new Map(rows.map((r) => [r.key_id, stateOfRow(r.state, r)]));
  }

  const traceOf = (prefix: string, events: number, seed: number, wide = false): AgentEvent[] =>
    generateTrace({ events, seed, ...(wide ? { principals: 40, resources: 20 } : {}) }).map((event) => ({
      ...event,
      tenant: `${prefix}-${event.tenant}`,
    }));

  it('two projectors writing the same keys in turn, each with its own cache, fold as the reference fold does, and loads take held states', async () => {
    const trace = traceOf('turns', 1_200, 13);
    const caches = [new CountingCache(10_000), new CountingCache(10_000)];
    const pipelines = caches.map(
      (cache) => new ProjectionPipeline(db, { send: async () => undefined }, DEFAULT_CONFIG, 'turns', cache),
    );
    const events = trace.map((event, i) => acceptedEvent(event, { topic: TOPIC, partition: 0, offset: String(i) }));
    // Chunks of 20 taken in turn: every key the other projector moved is a stale entry of this one's cache.
    for (let i = 0, turn = 0; i < events.length; i += 20, turn += 1) {
      await pipelines[turn % 2]!.processEvents(events.slice(i, i + 20));
    }
    const reference = governance.replay(trace);
    expect(await storedStates('turns')).toEqual(new Map(reference.states));
    const outbox = await db.query<{ id: string }>(
      `SELECT id FROM decision_outbox_transitions WHERE tenant LIKE 'turns-%' ORDER BY id`,
    );
    expect(outbox.rows.map((r) => r.id).sort()).toEqual(reference.outbox.map((e) => e.id).sort());
    // Held states stood in for documents, in both projectors.
    expect(caches[0]!.served).toBeGreaterThan(20);
    expect(caches[1]!.served).toBeGreaterThan(20);
  });

  it('folds as the reference fold does with a cache far smaller than the keys (entries evicted all along)', async () => {
    const trace = traceOf('small', 1_500, 21, true);
    const cache = new CountingCache(16);
    const pipeline = new ProjectionPipeline(db, { send: async () => undefined }, DEFAULT_CONFIG, 'small', cache);
    const events = trace.map((event, i) => acceptedEvent(event, { topic: TOPIC, partition: 1, offset: String(i) }));
    for (let i = 0; i < events.length; i += 25) await pipeline.processEvents(events.slice(i, i + 25));
    expect(cache.size).toBe(16);
    expect(await storedStates('small')).toEqual(new Map(governance.replay(trace).states));
  });

  it('remembers nothing of a transaction that rolled back: a retry folds from what is stored', async () => {
    const trace = traceOf('rollback', 300, 5);
    const cache = new CountingCache(10_000);
    const events = trace.map((event, i) => acceptedEvent(event, { topic: TOPIC, partition: 2, offset: String(i) }));
    // A database whose transactions can be made to fail once at their end: the work is done, the commit is not.
    let failCommit = false;
    const failingOnce = async <T>(result: T): Promise<T> => {
      if (!failCommit) return result;
      failCommit = false;
      throw Object.assign(new Error('connection terminated before COMMIT'), { retriable: true });
    };
    const flaky: SqlDatabase = {
      query: (text, params) => db.query(text, params),
      close: () => Promise.resolve(),
      transaction: (work) => db.transaction(async (tx) => failingOnce(await work(tx))),
      transactionOpenedBy: (statements, work) =>
        db.transactionOpenedBy!(statements, async (tx, answers) => failingOnce(await work(tx, answers))),
    };
    const pipeline = new ProjectionPipeline(flaky, { send: async () => undefined }, DEFAULT_CONFIG, 'rollback', cache);
    await pipeline.processEvents(events.slice(0, 150));
    const sizeBefore = cache.size;
    failCommit = true;
    await expect(pipeline.processEvents(events.slice(150))).rejects.toThrow(/before COMMIT/);
    // The rolled-back transaction's states (new keys among them) were not remembered.
    expect(cache.size).toBe(sizeBefore);
    await pipeline.processEvents(events.slice(150));
    expect(cache.size).toBeGreaterThan(sizeBefore);
    expect(await storedStates('rollback')).toEqual(new Map(governance.replay(trace).states));
  });
});
