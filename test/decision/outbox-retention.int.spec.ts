import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxRetention } from '@tokencircuit/decision-relay';
import { pgDatabase } from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';

describe('outbox retention (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_outbox_retention');
    const row = (id: string, published: string | null, created = "now() - interval '30 days'") =>
      db.pool.query(
        `INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot, created_at, published_at)
         VALUES ($1, 'acme', 'k', 1, '{}', ${created}, ${published ?? 'NULL'})`,
        [id],
      );
    await row('published-10-days-ago', "now() - interval '10 days'");
    await row('published-8-days-ago', "now() - interval '8 days'");
    await row('published-1-day-ago', "now() - interval '1 day'");
    await row('published-just-now', 'now()', 'now()');
    await row('pending-for-30-days', null);
  });
  afterAll(async () => db?.drop());

  const ids = async () =>
    (await db.pool.query<{ id: string }>('SELECT id FROM decision_outbox ORDER BY id')).rows.map((r) => r.id);

  it('deletes published rows older than the retention, in batches, and never a pending one', async () => {
    const retention = new OutboxRetention(pgDatabase(db.pool), 7 * 24, 1);
    expect(await retention.purge()).toBe(2);
    expect(await ids()).toEqual(['pending-for-30-days', 'published-1-day-ago', 'published-just-now']);
    expect(await retention.purge()).toBe(0);
    // The ids stay, so replay verification still counts those transitions as decided.
    const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM decision_outbox_purged ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual(['published-10-days-ago', 'published-8-days-ago']);
  });

  it('stops after the batches it was given, leaving the rest for the next purge', async () => {
    await db.pool.query(
      `INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot, published_at)
       SELECT 'old-' || g, 'acme', 'k', g, '{}', now() - interval '20 days' FROM generate_series(1, 5) g`,
    );
    const retention = new OutboxRetention(pgDatabase(db.pool), 7 * 24, 2);
    expect(await retention.purge(2)).toBe(4);
    expect(await retention.purge(2)).toBe(1);
    expect((await ids()).filter((id) => id.startsWith('old-'))).toEqual([]);
  });
});
