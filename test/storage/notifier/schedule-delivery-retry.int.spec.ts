import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase, type SqlDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { delivery, deliveryState } from '../../../libs/storage/src/spec-support/deliveries.js';
import { claimDeliveries } from '../../../libs/storage/src/notifier/claim-deliveries.js';
import { recordDeliveries } from '../../../libs/storage/src/notifier/record-deliveries.js';
import { scheduleDeliveryRetry } from '../../../libs/storage/src/notifier/schedule-delivery-retry.js';

describe('scheduleDeliveryRetry (real Postgres)', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_schedule_delivery_retry');
    sql = pgDatabase(db.pool);
    await recordDeliveries(sql, [delivery('soon', 'pager', { tenant: 'globex' }), delivery('in-an-hour', 'pager')]);
  });
  afterAll(async () => db?.drop());

  const claim = () => sql.transaction((tx) => claimDeliveries(tx, { sinks: ['pager'], limit: 10, leaseMs: 60_000 }));

  it('keeps the failure, gives up the claim, and the delivery is due only after its delay', async () => {
    expect((await claim()).map((d) => d.id)).toEqual(['soon', 'in-an-hour']);
    await asRole(db.pool, 'tokencircuit_notifier', async (tx) => {
      await scheduleDeliveryRetry(tx, 'soon', { status: null, reason: 'connection reset', delayMs: 0 });
      await scheduleDeliveryRetry(tx, 'in-an-hour', { status: 429, reason: 'rate limited', delayMs: 3_600_000 });
    });
    expect(await deliveryState(db.pool, 'in-an-hour')).toMatchObject({
      status: 'pending',
      claimed: false,
      last_status: 429,
      last_error: 'rate limited',
      attempts: 1,
      finished: false,
    });
    expect((await claim()).map((d) => [d.id, d.attempts])).toEqual([['soon', 2]]);
    const { rows } = await db.pool.query<{ wait: number }>(
      `SELECT extract(epoch FROM next_attempt_at - now())::float8 AS wait FROM notifier_deliveries WHERE id = 'in-an-hour'`,
    );
    expect(rows[0]!.wait).toBeGreaterThan(3_000);
  });
});
