import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase, type SqlDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { delivery, deliveryState } from '../../../libs/storage/src/spec-support/deliveries.js';
import { claimDeliveries } from '../../../libs/storage/src/notifier/claim-deliveries.js';
import { markDeliverySent } from '../../../libs/storage/src/notifier/mark-delivery-sent.js';
import { recordDeliveries } from '../../../libs/storage/src/notifier/record-deliveries.js';
import { scheduleDeliveryRetry } from '../../../libs/storage/src/notifier/schedule-delivery-retry.js';

describe('markDeliverySent (real Postgres)', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_mark_delivery_sent');
    sql = pgDatabase(db.pool);
    await recordDeliveries(sql, [
      delivery('trigger', 'pager', { episodeId: 'ep', tenant: 'globex' }),
      delivery('resolve', 'pager', { episodeId: 'ep', tenant: 'globex' }),
    ]);
  });
  afterAll(async () => db?.drop());

  const claim = () => sql.transaction((tx) => claimDeliveries(tx, { sinks: ['pager'], limit: 10, leaseMs: 60_000 }));

  it("finishes the delivery with the receiver's status, clears an earlier error, and the queue moves on", async () => {
    await claim();
    await scheduleDeliveryRetry(sql, 'trigger', { status: 503, reason: 'unavailable', delayMs: 0 });
    await claim();
    await asRole(db.pool, 'tokencircuit_notifier', (tx) => markDeliverySent(tx, 'trigger', 202));
    expect(await deliveryState(db.pool, 'trigger')).toMatchObject({
      status: 'sent',
      last_status: 202,
      last_error: null,
      claimed: false,
      finished: true,
      attempts: 2,
    });
    expect((await claim()).map((d) => d.id)).toEqual(['resolve']);
  });

  it('marks nothing for an unknown id', async () => {
    await markDeliverySent(sql, 'no-such-delivery', 200);
    expect(await deliveryState(db.pool, 'no-such-delivery')).toBeUndefined();
  });
});
