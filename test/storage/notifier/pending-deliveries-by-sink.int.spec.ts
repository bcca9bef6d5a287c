import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase, type SqlDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { delivery } from '../../../libs/storage/src/spec-support/deliveries.js';
import { pendingDeliveriesBySink } from '../../../libs/storage/src/notifier/pending-deliveries-by-sink.js';
import { recordDeliveries } from '../../../libs/storage/src/notifier/record-deliveries.js';

describe('pendingDeliveriesBySink (real Postgres)', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_pending_by_sink');
    sql = pgDatabase(db.pool);
  });
  afterAll(async () => db?.drop());

  it('is empty while nothing is pending', async () => {
    expect(await pendingDeliveriesBySink(sql)).toEqual([]);
  });

  it('counts pending deliveries per sink with the age of the oldest, across tenants for the notifier', async () => {
    await recordDeliveries(sql, [
      delivery('p-1', 'pager'),
      delivery('p-2', 'pager', { tenant: 'globex' }),
      delivery('s-1', 'slack', { tenant: 'globex' }),
      delivery('sent', 'hook'),
    ]);
    await db.pool.query(`UPDATE notifier_deliveries SET status = 'sent' WHERE id = 'sent'`);
    await db.pool.query(`UPDATE notifier_deliveries SET created_at = now() - interval '90 seconds' WHERE id = 'p-2'`);
    const backlog = await asRole(db.pool, 'tokencircuit_notifier', pendingDeliveriesBySink);
    expect(backlog.map((b) => [b.sink, b.depth])).toEqual([
      ['pager', 2],
      ['slack', 1],
    ]);
    expect(backlog[0]!.oldestSeconds).toBeGreaterThanOrEqual(90);
    expect(backlog[1]!.oldestSeconds).toBeLessThan(90);
  });

  it("counts only its own tenant's deliveries under a tenant's setting", async () => {
    const backlog = await asRole(db.pool, 'tokencircuit_audit', pendingDeliveriesBySink, 'acme');
    expect(backlog.map((b) => [b.sink, b.depth])).toEqual([['pager', 1]]);
  });
});
