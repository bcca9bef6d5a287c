import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { delivery, deliveryStates } from '../../../libs/storage/src/spec-support/deliveries.js';
import { recordDeliveries } from '../../../libs/storage/src/notifier/record-deliveries.js';

describe('recordDeliveries (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_record_deliveries');
  });
  afterAll(async () => db?.drop());

  it('records nothing for no deliveries', async () => {
    expect(await recordDeliveries(pgDatabase(db.pool), [])).toEqual([]);
    expect(await deliveryStates(db.pool)).toEqual([]);
  });

  it("records every tenant's deliveries pending, in the given order, with the step's columns, as the notifier role", async () => {
    const batch = [delivery('d-2', 'pager', { sinkType: 'pagerduty' }), delivery('d-1', 'slack', { tenant: 'globex' })];
    const recorded = await asRole(db.pool, 'tokencircuit_notifier', (tx) => recordDeliveries(tx, batch));
    expect(recorded).toEqual(batch);
    const { rows } = await db.pool.query(
      `SELECT id, tenant, sink, sink_type, event_id, episode_id, transition, level, status, attempts, step->>'eventId' AS step_event
         FROM notifier_deliveries ORDER BY seq`,
    );
    expect(rows).toEqual([
      {
        id: 'd-2',
        tenant: 'acme',
        sink: 'pager',
        sink_type: 'pagerduty',
        event_id: 'event-d-2',
        episode_id: 'episode-of-d-2',
        transition: 'triggered',
        level: 'page',
        status: 'pending',
        attempts: 0,
        step_event: 'event-d-2',
      },
      {
        id: 'd-1',
        tenant: 'globex',
        sink: 'slack',
        sink_type: 'webhook',
        event_id: 'event-d-1',
        episode_id: 'episode-of-d-1',
        transition: 'triggered',
        level: 'page',
        status: 'pending',
        attempts: 0,
        step_event: 'event-d-1',
      },
    ]);
  });

  it('leaves a delivery recorded before as it is and returns only the new ones (a redelivered step)', async () => {
    await db.pool.query(`UPDATE notifier_deliveries SET status = 'sent' WHERE id = 'd-2'`);
    const recorded = await recordDeliveries(pgDatabase(db.pool), [delivery('d-2', 'pager'), delivery('d-3', 'pager')]);
    expect(recorded.map((d) => d.id)).toEqual(['d-3']);
    expect((await deliveryStates(db.pool)).map((d) => [d.id, d.status])).toEqual([
      ['d-2', 'sent'],
      ['d-1', 'pending'],
      ['d-3', 'pending'],
    ]);
  });

  it("refuses a tenant's session to record another tenant's delivery (row-level security)", async () => {
    await db.pool.query('GRANT INSERT ON notifier_deliveries TO tokencircuit_audit');
    await db.pool.query('GRANT USAGE ON SEQUENCE notifier_deliveries_seq_seq TO tokencircuit_audit');
    try {
      await expect(
        asRole(
          db.pool,
          'tokencircuit_audit',
          (tx) => recordDeliveries(tx, [delivery('d-4', 'pager', { tenant: 'globex' })]),
          'acme',
        ),
      ).rejects.toThrow(/row-level security/);
    } finally {
      await db.pool.query('REVOKE INSERT ON notifier_deliveries FROM tokencircuit_audit');
      await db.pool.query('REVOKE USAGE ON SEQUENCE notifier_deliveries_seq_seq FROM tokencircuit_audit');
    }
    expect((await deliveryStates(db.pool)).map((d) => d.id)).not.toContain('d-4');
  });
});
