import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, waitFor, type TestDatabase } from '@tokencircuit/testing';
import { pgSession } from '../../../libs/storage/src/sql-database.js';
import { disableOutboxNotify } from '../../../libs/storage/src/replay/disable-outbox-notify.js';

describe('disableOutboxNotify (real Postgres)', () => {
  let db: TestDatabase;
  let listener: pg.Client;
  const received: string[] = [];
  const insert = (id: string) =>
    db.pool.query(
      "INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot) VALUES ($1, 'acme', 'k', 1, '{}')",
      [id],
    );

  beforeAll(async () => {
    db = await createTestDatabase('tc_disable_outbox_notify');
    listener = new pg.Client({ connectionString: db.url });
    await listener.connect();
    listener.on('notification', (message) => received.push(message.payload ?? ''));
    await listener.query('LISTEN decision_outbox');
  });
  afterAll(async () => {
    await listener?.end();
    await db?.drop();
  });

  it('silences decision_outbox inserts and nothing else: the rows are still written', async () => {
    await insert('o-announced');
    await waitFor(() => received.includes('o-announced'), { name: 'notification for o-announced', maxWait: 5_000 });
    await disableOutboxNotify(pgSession(db.pool));
    await insert('o-silent');
    // A NOTIFY is delivered at commit, before a later one; this marker is sent after the silent insert committed.
    await db.pool.query("SELECT pg_notify('decision_outbox', 'marker')");
    await waitFor(() => received.includes('marker'), { name: 'marker notification', maxWait: 5_000 });
    expect(received).toEqual(['o-announced', 'marker']);
    const { rows } = await db.pool.query('SELECT id FROM decision_outbox ORDER BY id');
    expect(rows).toEqual([{ id: 'o-announced' }, { id: 'o-silent' }]);
  });
});
