import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { outboxRowStates, seedOutboxRows } from '../../../libs/storage/src/spec-support/outbox-rows.js';
import { claimOutboxRows } from '../../../libs/storage/src/outbox/claim-outbox-rows.js';
import { MAX_OUTBOX_ERROR_CHARS } from '../../../libs/storage/src/outbox/outbox-error-text.js';
import { parkOutboxRows } from '../../../libs/storage/src/outbox/park-outbox-rows.js';

describe('parkOutboxRows (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_park_outbox_rows');
    await seedOutboxRows(db.pool, [{ id: 'poison' }, { id: 'huge' }, { id: 'fine', tenant: 'globex' }]);
  });
  afterAll(async () => db?.drop());

  it('parks nothing for no rows', async () => {
    await parkOutboxRows(pgDatabase(db.pool), []);
    expect((await outboxRowStates(db.pool)).some((r) => r.parked)).toBe(false);
  });

  it('parks each row with its own reason, shortened, and the claim never returns it', async () => {
    await asRole(db.pool, 'tokencircuit_writer', (tx) =>
      parkOutboxRows(tx, [
        { id: 'poison', reason: 'decision failed: TypeError: boom' },
        { id: 'huge', reason: `the database refused its records: ${'y'.repeat(2 * MAX_OUTBOX_ERROR_CHARS)}` },
      ]),
    );
    const states = await outboxRowStates(db.pool);
    expect(states.map((r) => [r.id, r.parked, r.attempts])).toEqual([
      ['fine', false, 0],
      ['huge', true, 1],
      ['poison', true, 1],
    ]);
    expect(states.find((r) => r.id === 'poison')!.last_error).toBe('decision failed: TypeError: boom');
    expect(states.find((r) => r.id === 'huge')!.last_error).toHaveLength(MAX_OUTBOX_ERROR_CHARS);
    const pending = await pgDatabase(db.pool).transaction((tx) => claimOutboxRows(tx, { limit: 10 }));
    expect(pending.map((r) => r.id)).toEqual(['fine']);
  });
});
