import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGovernance, DEFAULT_CONFIG, type FailureState } from '@tokencircuit/governance';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { loadCandidateStates } from '../../../libs/storage/src/projection/load-candidate-states.js';
import { saveFold } from '../../../libs/storage/src/projection/save-fold.js';

describe('loadCandidateStates (real Postgres)', () => {
  let test: TestDatabase;
  let states: FailureState[];
  beforeAll(async () => {
    test = await createTestDatabase('storage_load_states');
    states = [
      ...createGovernance(DEFAULT_CONFIG)
        .replay(generateTrace({ events: 600, seed: 8 }))
        .states.values(),
    ];
    await saveFold(pgDatabase(test.pool), {
      states,
      outbox: [],
      checkpoints: { group: 'g', topic: 't', next: new Map() },
    });
  });
  afterAll(async () => {
    await test?.drop();
  });

  it("loads a run's keys, a principal's fleet keys and named keys, and nothing else", async () => {
    const db = pgDatabase(test.pool);
    const run = states.find((s) => s.key.scope === 'run')!;
    const fleet = states.find((s) => s.key.scope === 'fleet')!;
    const named = states.find((s) => s.keyId !== run.keyId && s.keyId !== fleet.keyId)!;
    const expected = states.filter(
      (s) =>
        (s.key.tenant === run.key.tenant && s.key.run === run.key.run) ||
        (s.key.scope === 'fleet' && s.key.tenant === fleet.key.tenant && s.key.principal === fleet.key.principal) ||
        s.keyId === named.keyId,
    );
    expect(expected.length).toBeLessThan(states.length);
    const loaded = await db.transaction((tx) =>
      loadCandidateStates(tx, {
        runs: [[run.key.tenant, run.key.run!]],
        principals: [[fleet.key.tenant, fleet.key.principal!]],
        keyIds: [named.keyId, 'no-such-key'],
      }),
    );
    expect(loaded).toEqual(new Map(expected.map((s) => [s.keyId, s])));
  });

  it('row-locks what it loads until the transaction ends', async () => {
    const db = pgDatabase(test.pool);
    const target = states[0]!;
    await db.transaction(async (tx) => {
      await loadCandidateStates(tx, { runs: [], principals: [], keyIds: [target.keyId] });
      const other = await test.pool.connect();
      try {
        await other.query('BEGIN');
        const locked = await other.query('SELECT key_id FROM failure_state WHERE key_id = $1 FOR UPDATE SKIP LOCKED', [
          target.keyId,
        ]);
        expect(locked.rows).toEqual([]);
        await other.query('ROLLBACK');
      } finally {
        other.release();
      }
    });
  });
});
