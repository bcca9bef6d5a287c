import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { seedOutboxRows } from '../../../libs/storage/src/spec-support/outbox-rows.js';
import { purgePublishedOutbox } from '../../../libs/storage/src/outbox/purge-published-outbox.js';

describe('purgePublishedOutbox (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_purge_outbox');
  });
  afterAll(async () => db?.drop());

  const ids = async (table: string) =>
    (await db.pool.query<{ id: string }>(`SELECT id FROM ${table} ORDER BY id`)).rows.map((r) => r.id);
  const week = { olderThanHours: 7 * 24 };

  it('deletes nothing from an empty outbox', async () => {
    expect(await purgePublishedOutbox(pgDatabase(db.pool), { ...week, limit: 10 })).toBe(0);
  });

  it('deletes published rows older than the retention, oldest first and up to the limit, keeping their ids', async () => {
    await seedOutboxRows(db.pool, [
      { id: 'published-10-days-ago', publishedAt: "now() - interval '10 days'" },
      { id: 'published-9-days-ago', publishedAt: "now() - interval '9 days'", tenant: 'globex' },
      { id: 'published-8-days-ago', publishedAt: "now() - interval '8 days'" },
      { id: 'published-1-day-ago', publishedAt: "now() - interval '1 day'" },
      { id: 'pending-for-30-days', createdAt: "now() - interval '30 days'" },
      { id: 'parked-for-30-days', createdAt: "now() - interval '30 days'", parkedAt: "now() - interval '30 days'" },
    ]);
    const database = pgDatabase(db.pool);
    expect(await purgePublishedOutbox(database, { ...week, limit: 2 })).toBe(2);
    expect(await ids('decision_outbox_purged')).toEqual(['published-10-days-ago', 'published-9-days-ago']);
    // As the decision service's role, across tenants; then nothing is left to purge.
    expect(await asRole(db.pool, 'tokencircuit_writer', (tx) => purgePublishedOutbox(tx, { ...week, limit: 2 }))).toBe(
      1,
    );
    expect(await purgePublishedOutbox(database, { ...week, limit: 2 })).toBe(0);
    expect(await ids('decision_outbox')).toEqual(['parked-for-30-days', 'pending-for-30-days', 'published-1-day-ago']);
    const tenants = await db.pool.query('SELECT id, tenant FROM decision_outbox_purged ORDER BY id');
    expect(tenants.rows).toEqual([
      { id: 'published-10-days-ago', tenant: 'acme' },
      { id: 'published-8-days-ago', tenant: 'acme' },
      { id: 'published-9-days-ago', tenant: 'globex' },
    ]);
  });

  it('purges a row whose id was kept before (a restored backup) without failing', async () => {
    await db.pool.query(`INSERT INTO decision_outbox_purged (id, tenant) VALUES ('kept-already', 'acme')`);
    await seedOutboxRows(db.pool, [{ id: 'kept-already', publishedAt: "now() - interval '20 days'" }]);
    expect(await purgePublishedOutbox(pgDatabase(db.pool), { ...week, limit: 10 })).toBe(1);
    expect(await ids('decision_outbox')).not.toContain('kept-already');
  });
});
