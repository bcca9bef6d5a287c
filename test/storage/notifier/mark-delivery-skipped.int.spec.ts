import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase, type SqlDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { delivery, deliveryState } from '../../../libs/storage/src/spec-support/deliveries.js';
import { claimDeliveries } from '../../../libs/storage/src/notifier/claim-deliveries.js';
import { markDeliverySkipped } from '../../../libs/storage/src/notifier/mark-delivery-skipped.js';
import { recordDeliveries } from '../../../libs/storage/src/notifier/record-deliveries.js';

describe('markDeliverySkipped (real Postgres)', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_mark_delivery_skipped');
    sql = pgDatabase(db.pool);
    await recordDeliveries(sql, [
      delivery('ack', 'slack', { episodeId: 'ep', tenant: 'globex' }),
      delivery('resolve', 'slack', { episodeId: 'ep', tenant: 'globex' }),
    ]);
  });
  afterAll(async () => db?.drop());

  const claim = () => sql.transaction((tx) => claimDeliveries(tx, { sinks: ['slack'], limit: 10, leaseMs: 60_000 }));

  it('finishes the delivery without a status, and the queue moves on', async () => {
    expect((await claim()).map((d) => d.id)).toEqual(['ack']);
    await asRole(db.pool, 'tokencircuit_notifier', (tx) => markDeliverySkipped(tx, 'ack'));
    expect(await deliveryState(db.pool, 'ack')).toMatchObject({
      status: 'skipped',
      last_status: null,
      claimed: false,
      finished: true,
    });
    expect((await claim()).map((d) => d.id)).toEqual(['resolve']);
  });
});
