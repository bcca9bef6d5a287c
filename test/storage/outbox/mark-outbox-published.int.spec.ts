import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { outboxRowStates, seedOutboxRows } from '../../../libs/storage/src/spec-support/outbox-rows.js';
import { claimOutboxRows } from '../../../libs/storage/src/outbox/claim-outbox-rows.js';
import { markOutboxPublished } from '../../../libs/storage/src/outbox/mark-outbox-published.js';

describe('markOutboxPublished (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_mark_outbox_published');
    await seedOutboxRows(db.pool, [{ id: 'o-1' }, { id: 'o-2' }, { id: 'o-3', tenant: 'globex' }]);
  });
  afterAll(async () => db?.drop());

  it('changes nothing for no ids', async () => {
    await markOutboxPublished(pgDatabase(db.pool), []);
    expect((await outboxRowStates(db.pool)).filter((r) => r.published)).toEqual([]);
  });

  it('marks the named rows published, counting the attempt, and the claim no longer returns them', async () => {
    await asRole(db.pool, 'tokencircuit_writer', (tx) => markOutboxPublished(tx, ['o-1', 'o-3']));
    expect((await outboxRowStates(db.pool)).map((r) => [r.id, r.published, r.attempts])).toEqual([
      ['o-1', true, 1],
      ['o-2', false, 0],
      ['o-3', true, 1],
    ]);
    const pending = await pgDatabase(db.pool).transaction((tx) => claimOutboxRows(tx, { limit: 10 }));
    expect(pending.map((r) => r.id)).toEqual(['o-2']);
  });
});
