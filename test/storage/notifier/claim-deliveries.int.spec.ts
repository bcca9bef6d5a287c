import { afterAll, beforeEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase, type SqlDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { delivery, deliveryState } from '../../../libs/storage/src/spec-support/deliveries.js';
import { claimDeliveries } from '../../../libs/storage/src/notifier/claim-deliveries.js';
import { recordDeliveries } from '../../../libs/storage/src/notifier/record-deliveries.js';

describe('claimDeliveries (real Postgres)', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_claim_deliveries');
    sql = pgDatabase(db.pool);
  });
  beforeEach(async () => {
    await db.pool.query('TRUNCATE notifier_deliveries');
  });
  afterAll(async () => db?.drop());

  const claim = (sinks: readonly string[], limit = 10, leaseMs = 60_000) =>
    sql.transaction((tx) => claimDeliveries(tx, { sinks, limit, leaseMs }));
  const ids = (rows: readonly { id: string }[]) => rows.map((r) => r.id);

  it('claims nothing for no sinks, a zero limit or an empty table', async () => {
    expect(await claim(['pager'])).toEqual([]);
    await recordDeliveries(sql, [delivery('d-1', 'pager')]);
    expect(await claim([])).toEqual([]);
    expect(await claim(['pager'], 0)).toEqual([]);
    expect((await deliveryState(db.pool, 'd-1'))?.attempts).toBe(0);
  });

  it('claims the head of each (sink, episode) queue in queue order, counting the attempt, for the sinks asked', async () => {
    await recordDeliveries(sql, [
      delivery('trigger-a', 'pager', { episodeId: 'ep-a', sinkType: 'pagerduty' }),
      delivery('resolve-a', 'pager', { episodeId: 'ep-a', sinkType: 'pagerduty' }),
      delivery('slack-a', 'slack', { episodeId: 'ep-a' }),
      delivery('trigger-b', 'pager', { episodeId: 'ep-b', tenant: 'globex' }),
    ]);
    const claimed = await claim(['pager']);
    expect(ids(claimed)).toEqual(['trigger-a', 'trigger-b']);
    expect(claimed[0]).toMatchObject({
      sink: 'pager',
      sinkType: 'pagerduty',
      attempts: 1,
      step: { eventId: 'event-trigger-a' },
    });
    // Leased: neither claimed again nor is the queue behind it due.
    expect(ids(await claim(['pager', 'slack']))).toEqual(['slack-a']);
    await db.pool.query(`UPDATE notifier_deliveries SET status = 'sent' WHERE id = 'trigger-a'`);
    expect(ids(await claim(['pager']))).toEqual(['resolve-a']);
  });

  it('claims again a delivery whose lease ran out (its notifier died), and not one due later', async () => {
    await recordDeliveries(sql, [delivery('lapsed', 'pager'), delivery('later', 'pager')]);
    await db.pool.query(
      `UPDATE notifier_deliveries SET next_attempt_at = now() + interval '1 hour' WHERE id = 'later'`,
    );
    expect(ids(await claim(['pager'], 10, 0))).toEqual(['lapsed']);
    const again = await claim(['pager']);
    expect(again.map((d) => [d.id, d.attempts])).toEqual([['lapsed', 2]]);
  });

  it('stops at the limit and skips rows another notifier holds', async () => {
    await recordDeliveries(sql, [delivery('d-1', 'pager'), delivery('d-2', 'pager'), delivery('d-3', 'pager')]);
    const seen = await sql.transaction(async (first) => {
      const mine = await claimDeliveries(first, { sinks: ['pager'], limit: 1, leaseMs: 60_000 });
      const theirs = await claim(['pager']);
      return { mine: ids(mine), theirs: ids(theirs) };
    });
    expect(seen).toEqual({ mine: ['d-1'], theirs: ['d-2', 'd-3'] });
  });

  it("claims every tenant's deliveries as the notifier role", async () => {
    await recordDeliveries(sql, [delivery('acme-1', 'pager'), delivery('globex-1', 'pager', { tenant: 'globex' })]);
    const claimed = await asRole(db.pool, 'tokencircuit_notifier', (tx) =>
      claimDeliveries(tx, { sinks: ['pager'], limit: 10, leaseMs: 60_000 }),
    );
    expect(claimed.map((d) => [d.id, d.step.tenant])).toEqual([
      ['acme-1', 'acme'],
      ['globex-1', 'globex'],
    ]);
  });
});
