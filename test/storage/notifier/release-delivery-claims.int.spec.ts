import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase, type SqlDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { delivery, deliveryStates } from '../../../libs/storage/src/spec-support/deliveries.js';
import { claimDeliveries } from '../../../libs/storage/src/notifier/claim-deliveries.js';
import { markDeliverySent } from '../../../libs/storage/src/notifier/mark-delivery-sent.js';
import { recordDeliveries } from '../../../libs/storage/src/notifier/record-deliveries.js';
import { releaseDeliveryClaims } from '../../../libs/storage/src/notifier/release-delivery-claims.js';

describe('releaseDeliveryClaims (real Postgres)', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_release_delivery_claims');
    sql = pgDatabase(db.pool);
    await recordDeliveries(sql, [delivery('held', 'pager'), delivery('sent', 'slack', { tenant: 'globex' })]);
    await sql.transaction((tx) => claimDeliveries(tx, { sinks: ['pager', 'slack'], limit: 10, leaseMs: 60_000 }));
    await markDeliverySent(sql, 'sent', 200);
  });
  afterAll(async () => db?.drop());

  const claim = () =>
    sql.transaction((tx) => claimDeliveries(tx, { sinks: ['pager', 'slack'], limit: 10, leaseMs: 60_000 }));

  it('changes nothing for no ids', async () => {
    await releaseDeliveryClaims(sql, []);
    expect((await deliveryStates(db.pool)).map((d) => [d.id, d.claimed, d.attempts])).toEqual([
      ['held', true, 1],
      ['sent', false, 1],
    ]);
  });

  it('gives a pending claim back without spending its attempt, and leaves a finished delivery as it is', async () => {
    await asRole(db.pool, 'tokencircuit_notifier', (tx) => releaseDeliveryClaims(tx, ['held', 'sent']));
    expect((await deliveryStates(db.pool)).map((d) => [d.id, d.status, d.claimed, d.attempts])).toEqual([
      ['held', 'pending', false, 0],
      ['sent', 'sent', false, 1],
    ]);
    expect((await claim()).map((d) => [d.id, d.attempts])).toEqual([['held', 1]]);
  });
});
