import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgSession } from '../../../libs/storage/src/sql-database.js';
import { createSchema } from '../../../libs/storage/src/replay/create-schema.js';

describe('createSchema (real Postgres)', () => {
  let db: TestDatabase;
  const schemas = async () =>
    (
      await db.pool.query<{ nspname: string }>("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'replay_%'")
    ).rows.map((r) => r.nspname);
  beforeAll(async () => {
    db = await createTestDatabase('tc_create_schema');
  });
  afterAll(async () => db?.drop());

  it('creates an empty schema', async () => {
    await createSchema(pgSession(db.pool), 'replay_1');
    expect(await schemas()).toEqual(['replay_1']);
    const { rows } = await db.pool.query("SELECT 1 FROM pg_tables WHERE schemaname = 'replay_1'");
    expect(rows).toEqual([]);
  });

  it("refuses a schema that exists, so a run never writes into another run's", async () => {
    await expect(createSchema(pgSession(db.pool), 'replay_1')).rejects.toMatchObject({ code: '42P06' });
  });

  it('refuses a name that is not plain before it reaches the database', async () => {
    await expect(createSchema(pgSession(db.pool), 'replay_2"; DROP SCHEMA public; --')).rejects.toThrow(
      /not a plain schema name/,
    );
    expect(await schemas()).toEqual(['replay_1']);
  });
});
