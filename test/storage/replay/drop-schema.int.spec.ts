import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgSession } from '../../../libs/storage/src/sql-database.js';
import { dropSchema } from '../../../libs/storage/src/replay/drop-schema.js';

describe('dropSchema (real Postgres)', () => {
  let db: TestDatabase;
  const exists = async (schema: string) =>
    (await db.pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).rows.length === 1;
  beforeAll(async () => {
    db = await createTestDatabase('tc_drop_schema');
  });
  afterAll(async () => db?.drop());

  it('drops a schema with the tables in it, and leaves the others', async () => {
    await db.pool.query('CREATE SCHEMA replay_1; CREATE TABLE replay_1.t (x int); INSERT INTO replay_1.t VALUES (1)');
    await dropSchema(pgSession(db.pool), 'replay_1');
    expect(await exists('replay_1')).toBe(false);
    expect(await exists('public')).toBe(true);
  });

  it('is no error for a schema already gone', async () => {
    await expect(dropSchema(pgSession(db.pool), 'replay_1')).resolves.toBeUndefined();
  });
});
