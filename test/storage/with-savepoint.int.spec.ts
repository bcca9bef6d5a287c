import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase, type SqlSession } from '../../libs/storage/src/sql-database.js';
import { outboxRowStates, seedOutboxRows } from '../../libs/storage/src/spec-support/outbox-rows.js';
import { withSavepoint } from '../../libs/storage/src/with-savepoint.js';

describe('withSavepoint (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_with_savepoint');
    await seedOutboxRows(db.pool, [{ id: 'o-1' }, { id: 'o-2' }]);
  });
  afterAll(async () => db?.drop());

  const touch = (tx: SqlSession, id: string) =>
    tx.query('UPDATE decision_outbox SET attempts = attempts + 1 WHERE id = $1', [id]);

  it('keeps what the work wrote and returns its value', async () => {
    const value = await pgDatabase(db.pool).transaction((tx) =>
      withSavepoint(tx, 'sp_keep', async () => {
        await touch(tx, 'o-1');
        return 'done';
      }),
    );
    expect(value).toBe('done');
    expect((await outboxRowStates(db.pool)).map((r) => r.attempts)).toEqual([1, 0]);
  });

  it('undoes a failed work, rethrows, and the transaction goes on', async () => {
    const caught = await pgDatabase(db.pool).transaction(async (tx) => {
      const error = await withSavepoint(tx, 'sp_undo', async () => {
        await touch(tx, 'o-1');
        await tx.query('SELECT 1/0');
      }).catch((e: unknown) => e);
      await touch(tx, 'o-2');
      return error;
    });
    expect((caught as { code?: string }).code).toBe('22012');
    expect((await outboxRowStates(db.pool)).map((r) => r.attempts)).toEqual([1, 1]);
  });

  it('refuses a name that is not an identifier', async () => {
    await expect(
      pgDatabase(db.pool).transaction((tx) => withSavepoint(tx, 'x; DROP TABLE decision_outbox', async () => 1)),
    ).rejects.toThrow(TypeError);
  });
});
