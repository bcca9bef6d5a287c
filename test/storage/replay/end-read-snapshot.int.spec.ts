import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgSession } from '../../../libs/storage/src/sql-database.js';
import { insertAgentEvent } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { beginReadSnapshot } from '../../../libs/storage/src/replay/begin-read-snapshot.js';
import { endReadSnapshot } from '../../../libs/storage/src/replay/end-read-snapshot.js';

describe('endReadSnapshot (real Postgres)', () => {
  let db: TestDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    db = await createTestDatabase('tc_end_read_snapshot');
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  it('lets the snapshot go: the session sees what others committed meanwhile, outside any transaction', async () => {
    const session = pgSession(client);
    const count = async () =>
      (await session.query<{ n: number }>('SELECT count(*)::int AS n FROM agent_events')).rows[0]!.n;
    await beginReadSnapshot(session);
    expect(await count()).toBe(0);
    await insertAgentEvent(db.pool, { tenant: 'acme', id: 'meanwhile' });
    expect(await count()).toBe(0);
    await endReadSnapshot(session);
    expect(await count()).toBe(1);
    // Out of the read-only transaction: the connection could write again.
    await expect(session.query("SELECT current_setting('transaction_read_only') AS ro")).resolves.toEqual({
      rows: [{ ro: 'off' }],
    });
  });
});
