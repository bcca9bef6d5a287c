import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase, type SqlDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { delivery, deliveryState } from '../../../libs/storage/src/spec-support/deliveries.js';
import { claimDeliveries } from '../../../libs/storage/src/notifier/claim-deliveries.js';
import { markDeliveryDead } from '../../../libs/storage/src/notifier/mark-delivery-dead.js';
import { recordDeliveries } from '../../../libs/storage/src/notifier/record-deliveries.js';

describe('markDeliveryDead (real Postgres)', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_mark_delivery_dead');
    sql = pgDatabase(db.pool);
    await recordDeliveries(sql, [
      delivery('trigger', 'pager', { episodeId: 'ep', tenant: 'globex' }),
      delivery('resolve', 'pager', { episodeId: 'ep', tenant: 'globex' }),
    ]);
  });
  afterAll(async () => db?.drop());

  const claim = () => sql.transaction((tx) => claimDeliveries(tx, { sinks: ['pager'], limit: 10, leaseMs: 60_000 }));

  it('finishes the delivery as dead with its cause, status and reason, and the queue moves on', async () => {
    await claim();
    await asRole(db.pool, 'tokencircuit_notifier', (tx) =>
      markDeliveryDead(tx, 'trigger', { cause: 'permanent', status: 400, reason: 'invalid routing key' }),
    );
    expect(await deliveryState(db.pool, 'trigger')).toMatchObject({
      status: 'dead',
      dead_cause: 'permanent',
      last_status: 400,
      last_error: 'invalid routing key',
      claimed: false,
      finished: true,
      dlq_published: false,
    });
    expect((await claim()).map((d) => d.id)).toEqual(['resolve']);
  });

  it('refuses a cause the table does not know', async () => {
    await expect(
      markDeliveryDead(sql, 'resolve', { cause: 'bored' as 'permanent', status: null, reason: 'x' }),
    ).rejects.toMatchObject({ code: '23514' });
  });
});
