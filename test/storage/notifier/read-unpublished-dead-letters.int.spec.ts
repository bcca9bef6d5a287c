import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase, type SqlDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { delivery } from '../../../libs/storage/src/spec-support/deliveries.js';
import { markDeliveryDead } from '../../../libs/storage/src/notifier/mark-delivery-dead.js';
import { readUnpublishedDeadLetters } from '../../../libs/storage/src/notifier/read-unpublished-dead-letters.js';
import { recordDeliveries } from '../../../libs/storage/src/notifier/record-deliveries.js';

describe('readUnpublishedDeadLetters (real Postgres)', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_read_dead_letters');
    sql = pgDatabase(db.pool);
  });
  afterAll(async () => db?.drop());

  const read = (limit = 10) => sql.transaction((tx) => readUnpublishedDeadLetters(tx, limit));

  it('reads nothing while no delivery is dead', async () => {
    await recordDeliveries(sql, [delivery('alive', 'pager')]);
    expect(await read()).toEqual([]);
  });

  it('reads dead deliveries oldest first up to the limit, as the DLQ record wants them', async () => {
    await recordDeliveries(sql, [
      delivery('dead-1', 'pager', { sinkType: 'pagerduty', tenant: 'globex' }),
      delivery('dead-2', 'hook'),
      delivery('already-in-dlq', 'hook'),
    ]);
    await markDeliveryDead(sql, 'dead-1', { cause: 'permanent', status: 400, reason: 'bad key' });
    await markDeliveryDead(sql, 'dead-2', { cause: 'exhausted', status: null, reason: 'timeout' });
    await markDeliveryDead(sql, 'already-in-dlq', { cause: 'exhausted', status: 500, reason: 'down' });
    await db.pool.query(`UPDATE notifier_deliveries SET dlq_published_at = now() WHERE id = 'already-in-dlq'`);
    // A row marked dead before last_error and dead_cause were kept.
    await db.pool.query(`UPDATE notifier_deliveries SET last_error = NULL, dead_cause = NULL WHERE id = 'dead-2'`);

    const letters = await asRole(db.pool, 'tokencircuit_notifier', (tx) => readUnpublishedDeadLetters(tx, 10));
    expect(letters.map((l) => l.id)).toEqual(['dead-1', 'dead-2']);
    expect(letters[0]).toMatchObject({
      sink: 'pager',
      sinkType: 'pagerduty',
      attempts: 0,
      lastStatus: 400,
      lastError: 'bad key',
      cause: 'permanent',
      step: { eventId: 'event-dead-1', tenant: 'globex' },
    });
    expect(letters[0]!.deadAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(letters[1]).toMatchObject({ lastStatus: null, lastError: '', cause: 'exhausted' });
    expect((await read(1)).map((l) => l.id)).toEqual(['dead-1']);
  });

  it('skips letters another notifier holds, so two never publish one', async () => {
    const seen = await sql.transaction(async (first) => {
      const mine = await readUnpublishedDeadLetters(first, 1);
      const theirs = await read();
      return { mine: mine.map((l) => l.id), theirs: theirs.map((l) => l.id) };
    });
    expect(seen).toEqual({ mine: ['dead-1'], theirs: ['dead-2'] });
  });
});
