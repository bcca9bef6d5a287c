import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgSession } from '../../../libs/storage/src/sql-database.js';
import { insertAgentEvent } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { beginReadSnapshot } from '../../../libs/storage/src/replay/begin-read-snapshot.js';

describe('beginReadSnapshot (real Postgres)', () => {
  let db: TestDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    db = await createTestDatabase('tc_begin_read_snapshot');
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  it('reads one snapshot while other sessions commit, and refuses writes', async () => {
    const session = pgSession(client);
    const count = async () =>
      (await session.query<{ n: number }>('SELECT count(*)::int AS n FROM agent_events')).rows[0]!.n;
    await insertAgentEvent(db.pool, { tenant: 'acme', id: 'before' });
    await beginReadSnapshot(session);
    expect(await count()).toBe(1);
    await insertAgentEvent(db.pool, { tenant: 'acme', id: 'after' });
    expect(await count()).toBe(1);
    await expect(session.query('CREATE TABLE refused (x int)')).rejects.toMatchObject({
      code: '25006', // read_only_sql_transaction
    });
    await session.query('ROLLBACK');
    expect(await count()).toBe(2);
  });
});
