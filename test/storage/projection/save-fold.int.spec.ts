import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGovernance, DEFAULT_CONFIG } from '@tokencircuit/governance';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import { readCheckpoints } from '../../../libs/storage/src/projector-checkpoints.js';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { saveFold } from '../../../libs/storage/src/projection/save-fold.js';

const governance = createGovernance(DEFAULT_CONFIG);

describe('saveFold (real Postgres)', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase('storage_save_fold');
  });
  afterAll(async () => {
    await test?.drop();
  });

  it('writes states, outbox rows and the checkpoint in one statement; again is a no-op; checkpoints never go back', async () => {
    const db = pgDatabase(test.pool);
    const { states, outbox } = governance.replay(generateTrace({ events: 300, seed: 5 }));
    expect(states.size).toBeGreaterThan(0);
    expect(outbox.length).toBeGreaterThan(0);
    const fold = {
      states: [...states.values()],
      outbox,
      checkpoints: {
        group: 'g',
        topic: 't',
        next: new Map([
          [0, 300n],
          [1, 7n],
        ]),
      },
    };
    await db.transaction((tx) => saveFold(tx, fold));
    const stored = async () => ({
      states: (await test.pool.query('SELECT key_id, state, version, status FROM failure_state ORDER BY key_id')).rows,
      outbox: (
        await test.pool.query('SELECT id, key_id, state_version, state_snapshot FROM decision_outbox ORDER BY id')
      ).rows,
    });
    const first = await stored();
    expect(new Map(first.states.map((r) => [r['key_id'], r['state']]))).toEqual(new Map(states));
    expect(first.outbox.map((r) => r['id']).sort()).toEqual(outbox.map((e) => e.id).sort());
    expect(first.outbox.find((r) => r['id'] === outbox[0]!.id)!['state_snapshot']).toEqual(
      JSON.parse(JSON.stringify(outbox[0]!.snapshot)),
    );

    await db.transaction((tx) =>
      saveFold(tx, {
        ...fold,
        checkpoints: {
          group: 'g',
          topic: 't',
          next: new Map([
            [0, 5n],
            [1, 9n],
          ]),
        },
      }),
    );
    expect(await stored()).toEqual(first);
    expect(await readCheckpoints(db, 'g', 't')).toEqual(
      new Map([
        [0, 300n],
        [1, 9n],
      ]),
    );
  });

  it('writes nothing for an empty fold', async () => {
    const db = pgDatabase(test.pool);
    await saveFold(db, { states: [], outbox: [], checkpoints: { group: 'empty', topic: 't', next: new Map() } });
    expect(await readCheckpoints(db, 'empty', 't')).toEqual(new Map());
  });
});
