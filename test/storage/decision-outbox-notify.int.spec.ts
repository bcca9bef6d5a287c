import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, waitFor, type TestDatabase } from '@tokencircuit/testing';

describe('decision_outbox NOTIFY', () => {
  let db: TestDatabase;
  let listener: pg.Client;
  const received: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('tc_outbox_notify');
    listener = new pg.Client({ connectionString: db.url });
    await listener.connect();
    listener.on('notification', (message) => {
      if (message.channel === 'decision_outbox') received.push(message.payload ?? '');
    });
    await listener.query('LISTEN decision_outbox');
  });

  afterAll(async () => {
    await listener?.end();
    await db?.drop();
  });

  const insert = (id: string) =>
    db.pool.query(
      `INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot)
       VALUES ($1, 'acme', 'k', 1, '{}') ON CONFLICT (id) DO NOTHING`,
      [id],
    );

  it('announces each committed insert with the row id, once, in commit order', async () => {
    await insert('o-1');
    await insert('o-1'); // a replayed batch: no new row, so no notification
    await insert('o-2');
    await waitFor(() => received.includes('o-2'), { name: 'notification for o-2', maxWait: 5_000 });
    expect(received).toEqual(['o-1', 'o-2']);
  });

  it('announces nothing for a rolled-back insert', async () => {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot) VALUES ('o-rolled-back', 'acme', 'k', 2, '{}')`,
      );
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    await insert('o-3');
    await waitFor(() => received.includes('o-3'), { name: 'notification for o-3', maxWait: 5_000 });
    expect(received).toEqual(['o-1', 'o-2', 'o-3']);
  });
});
