import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { readCheckpoints } from '../../../libs/storage/src/checkpoints/read-checkpoints.js';
import { setCheckpoints } from '../../../libs/storage/src/checkpoints/set-checkpoints.js';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';

describe("setCheckpoints: an operator's rebase (real Postgres)", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase('storage_set_checkpoints');
  });
  afterAll(async () => {
    await test?.drop();
  });

  it('inserts new partitions and moves existing ones backwards, leaving the others alone', async () => {
    const db = pgDatabase(test.pool);
    await setCheckpoints(
      db,
      'rebase',
      't',
      new Map([
        [0, 10n],
        [1, 20n],
      ]),
    );
    await setCheckpoints(db, 'rebase', 't', new Map([[1, 3n]]));
    expect(await readCheckpoints(db, 'rebase', 't')).toEqual(
      new Map([
        [0, 10n],
        [1, 3n],
      ]),
    );
  });

  it('writes nothing for an empty map', async () => {
    const db = pgDatabase(test.pool);
    await setCheckpoints(db, 'untouched', 't', new Map());
    const { rows } = await test.pool.query(`SELECT 1 FROM projector_checkpoints WHERE consumer_group = 'untouched'`);
    expect(rows).toEqual([]);
  });
});
