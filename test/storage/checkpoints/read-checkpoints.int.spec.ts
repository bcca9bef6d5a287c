import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { readCheckpoints } from '../../../libs/storage/src/checkpoints/read-checkpoints.js';
import { setCheckpoints } from '../../../libs/storage/src/checkpoints/set-checkpoints.js';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';

describe('readCheckpoints: the one reader of projector checkpoints (real Postgres)', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase('storage_read_checkpoints');
  });
  afterAll(async () => {
    await test?.drop();
  });

  it('reads a group and topic, all partitions or some', async () => {
    const db = pgDatabase(test.pool);
    await setCheckpoints(
      db,
      'g',
      't',
      new Map([
        [0, 10n],
        [1, 20n],
        [2, 9_007_199_254_740_993n],
      ]),
    );
    await setCheckpoints(db, 'other', 't', new Map([[0, 1n]]));
    expect(await readCheckpoints(db, 'g', 't')).toEqual(
      new Map([
        [0, 10n],
        [1, 20n],
        [2, 9_007_199_254_740_993n],
      ]),
    );
    expect(await readCheckpoints(db, 'g', 't', { partitions: [1, 5] })).toEqual(new Map([[1, 20n]]));
    expect(await readCheckpoints(db, 'other', 't')).toEqual(new Map([[0, 1n]]));
    expect(await readCheckpoints(db, 'g', 'another-topic')).toEqual(new Map());
  });

  it('with forUpdate, holds the rows it read until the transaction ends', async () => {
    const db = pgDatabase(test.pool);
    await setCheckpoints(
      db,
      'locked',
      't',
      new Map([
        [0, 1n],
        [1, 1n],
      ]),
    );
    await db.transaction(async (tx) => {
      expect(await readCheckpoints(tx, 'locked', 't', { partitions: [0], forUpdate: true })).toEqual(
        new Map([[0, 1n]]),
      );
      const { rows } = await test.pool.query(
        `SELECT partition FROM projector_checkpoints WHERE consumer_group = 'locked' FOR UPDATE SKIP LOCKED`,
      );
      // Only the partition read is locked; the other one is free.
      expect(rows).toEqual([{ partition: 1 }]);
    });
  });
});
