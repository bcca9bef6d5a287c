import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { seedOutboxRows } from '../../../libs/storage/src/spec-support/outbox-rows.js';
import { countPendingOutbox } from '../../../libs/storage/src/outbox/count-pending-outbox.js';

describe('countPendingOutbox (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_count_pending_outbox');
  });
  afterAll(async () => db?.drop());

  it('counts zero in an empty outbox', async () => {
    expect(await countPendingOutbox(pgDatabase(db.pool))).toBe(0);
  });

  it("counts rows neither published nor parked, every tenant's for the writer and one tenant's under its setting", async () => {
    await seedOutboxRows(db.pool, [
      { id: 'p-1' },
      { id: 'p-2', tenant: 'globex' },
      { id: 'p-3', tenant: 'globex' },
      { id: 'published', publishedAt: 'now()' },
      { id: 'parked', parkedAt: 'now()' },
    ]);
    expect(await countPendingOutbox(pgDatabase(db.pool))).toBe(3);
    expect(await asRole(db.pool, 'tokencircuit_writer', countPendingOutbox)).toBe(3);
    expect(await asRole(db.pool, 'tokencircuit_audit', countPendingOutbox, 'globex')).toBe(2);
  });
});
