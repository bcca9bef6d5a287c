import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { seedOutboxRows } from '../../../libs/storage/src/spec-support/outbox-rows.js';
import { sessionElsewhere } from '../../../libs/storage/src/spec-support/session-elsewhere.js';
import { readDecidedOutboxIds } from '../../../libs/storage/src/replay/read-decided-outbox-ids.js';

describe('readDecidedOutboxIds (real Postgres)', () => {
  let db: TestDatabase;
  let session: Awaited<ReturnType<typeof sessionElsewhere>>;

  beforeAll(async () => {
    db = await createTestDatabase('tc_read_decided_outbox_ids');
    await seedOutboxRows(db.pool, [
      { id: 'b@v1' },
      { id: 'B@v1', tenant: 'globex' },
      { id: 'a@v2', publishedAt: 'now()' },
      { id: 'c@v1', parkedAt: 'now()' },
    ]);
    await db.pool.query("INSERT INTO decision_outbox_purged (id, tenant) VALUES ('a@v1', 'acme'), ('é@v1', 'acme')");
    session = await sessionElsewhere(db.url);
  });
  afterAll(async () => {
    await session?.end();
    await db?.drop();
  });

  it('reads outbox and purged ids together, pending, published and parked alike, in byte order, a page at a time', async () => {
    const first = await readDecidedOutboxIds(session, { schema: 'public', after: null, limit: 4 });
    expect(first).toEqual(['B@v1', 'a@v1', 'a@v2', 'b@v1']);
    await expect(readDecidedOutboxIds(session, { schema: 'public', after: 'b@v1', limit: 4 })).resolves.toEqual([
      'c@v1',
      'é@v1',
    ]);
    await expect(readDecidedOutboxIds(session, { schema: 'public', after: 'é@v1', limit: 4 })).resolves.toEqual([]);
  });
});
