import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import {
  explainingSession,
  outboxRowStates,
  seedBusyOutbox,
  seedOutboxRows,
} from '../../../libs/storage/src/spec-support/outbox-rows.js';
import { MAX_OUTBOX_ERROR_CHARS } from '../../../libs/storage/src/outbox/outbox-error-text.js';
import { recordOutboxFailure } from '../../../libs/storage/src/outbox/record-outbox-failure.js';

describe('recordOutboxFailure (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_record_outbox_failure');
    await seedOutboxRows(db.pool, [
      { id: 'pending' },
      { id: 'published-meanwhile', publishedAt: 'now()' },
      { id: 'parked-meanwhile', parkedAt: 'now()' },
      { id: 'untouched', tenant: 'globex' },
    ]);
  });
  afterAll(async () => db?.drop());

  it('changes nothing for no ids', async () => {
    await recordOutboxFailure(pgDatabase(db.pool), [], 'broker down');
    expect((await outboxRowStates(db.pool)).every((r) => r.attempts === 0 && r.last_error === null)).toBe(true);
  });

  it('counts the attempt and keeps the error on rows still pending, and on no other', async () => {
    await asRole(db.pool, 'tokencircuit_writer', (tx) =>
      recordOutboxFailure(tx, ['pending', 'published-meanwhile', 'parked-meanwhile'], 'KafkaJSError: broker down'),
    );
    await recordOutboxFailure(pgDatabase(db.pool), ['pending'], 'x'.repeat(MAX_OUTBOX_ERROR_CHARS + 50));
    const states = await outboxRowStates(db.pool);
    expect(states.map((r) => [r.id, r.attempts, r.last_error?.length ?? null])).toEqual([
      ['parked-meanwhile', 0, null],
      ['pending', 2, MAX_OUTBOX_ERROR_CHARS],
      ['published-meanwhile', 0, null],
      ['untouched', 0, null],
    ]);
  });

  it('finds the rows by primary key even when statistics say the pending index is nearly empty', async () => {
    const busy = await createTestDatabase('tc_record_outbox_failure_plan');
    try {
      await seedBusyOutbox(busy.pool, 5_000, ['failed-1', 'failed-2']);
      const plans: string[] = [];
      await recordOutboxFailure(explainingSession(busy.pool, plans), ['failed-1', 'failed-2'], 'broker down');
      expect(plans[0]).toContain('decision_outbox_pkey');
      expect(plans[0]).not.toContain('decision_outbox_pending_idx');
    } finally {
      await busy.drop();
    }
  });
});
