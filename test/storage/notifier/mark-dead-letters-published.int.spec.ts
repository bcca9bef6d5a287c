import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase, type SqlDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { delivery, deliveryStates } from '../../../libs/storage/src/spec-support/deliveries.js';
import { markDeadLettersPublished } from '../../../libs/storage/src/notifier/mark-dead-letters-published.js';
import { markDeliveryDead } from '../../../libs/storage/src/notifier/mark-delivery-dead.js';
import { readUnpublishedDeadLetters } from '../../../libs/storage/src/notifier/read-unpublished-dead-letters.js';
import { recordDeliveries } from '../../../libs/storage/src/notifier/record-deliveries.js';

describe('markDeadLettersPublished (real Postgres)', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_mark_dead_letters_published');
    sql = pgDatabase(db.pool);
    await recordDeliveries(sql, [delivery('dead-1', 'pager', { tenant: 'globex' }), delivery('dead-2', 'pager')]);
    for (const id of ['dead-1', 'dead-2']) {
      await markDeliveryDead(sql, id, { cause: 'exhausted', status: 503, reason: 'down' });
    }
  });
  afterAll(async () => db?.drop());

  it('changes nothing for no ids', async () => {
    await markDeadLettersPublished(sql, []);
    expect((await deliveryStates(db.pool)).some((d) => d.dlq_published)).toBe(false);
  });

  it('marks the named letters published, and only those are no longer read; marking twice is harmless', async () => {
    await asRole(db.pool, 'tokencircuit_notifier', (tx) => markDeadLettersPublished(tx, ['dead-1']));
    await markDeadLettersPublished(sql, ['dead-1']);
    expect((await deliveryStates(db.pool)).map((d) => [d.id, d.status, d.dlq_published])).toEqual([
      ['dead-1', 'dead', true],
      ['dead-2', 'dead', false],
    ]);
    const unpublished = await sql.transaction((tx) => readUnpublishedDeadLetters(tx, 10));
    expect(unpublished.map((l) => l.id)).toEqual(['dead-2']);
  });
});
