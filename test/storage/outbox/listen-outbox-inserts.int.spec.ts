import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, waitFor, type TestDatabase } from '@tokencircuit/testing';
import { seedOutboxRows } from '../../../libs/storage/src/spec-support/outbox-rows.js';
import { listenOutboxInserts } from '../../../libs/storage/src/outbox/listen-outbox-inserts.js';

describe('listenOutboxInserts (real Postgres)', () => {
  let db: TestDatabase;
  let listener: pg.Client;
  const announced: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('tc_listen_outbox');
    listener = new pg.Client({ connectionString: db.url });
    await listener.connect();
    await listenOutboxInserts(listener, (ids) => announced.push(...ids));
    // The same connection hears another channel too (a host may share it): those payloads are not outbox ids.
    await listener.query('LISTEN other_channel');
  });
  afterAll(async () => {
    await listener?.end();
    await db?.drop();
  });

  it('hands over the id of each committed insert, and nothing from other channels', async () => {
    await db.pool.query(`NOTIFY other_channel, 'not-an-outbox-row'`);
    await seedOutboxRows(db.pool, [{ id: 'o-1' }, { id: 'o-2', tenant: 'globex' }]);
    await waitFor(() => announced.includes('o-2'), { name: 'the id o-2', maxWait: 5_000 });
    expect(announced).toEqual(['o-1', 'o-2']);
  });
});
