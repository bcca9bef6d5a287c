import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase, type SqlDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { advanceNotifierCheckpoint } from '../../../libs/storage/src/notifier/advance-notifier-checkpoint.js';
import { ensureNotifierCheckpoint } from '../../../libs/storage/src/notifier/ensure-notifier-checkpoint.js';
import { lockNotifierCheckpoint } from '../../../libs/storage/src/notifier/lock-notifier-checkpoint.js';

describe('advanceNotifierCheckpoint (real Postgres)', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_advance_notifier_checkpoint');
    sql = pgDatabase(db.pool);
    await ensureNotifierCheckpoint(sql, 'episode_events', 'earliest');
    await ensureNotifierCheckpoint(sql, 'other-source', 'earliest');
  });
  afterAll(async () => db?.drop());

  const position = (source: string) => sql.transaction((tx) => lockNotifierCheckpoint(tx, source));

  it("moves only that source's checkpoint, past 2^32 exactly, as the notifier role", async () => {
    await asRole(db.pool, 'tokencircuit_notifier', (tx) =>
      advanceNotifierCheckpoint(tx, 'episode_events', '4294967297'),
    );
    expect([await position('episode_events'), await position('other-source')]).toEqual(['4294967297', '0']);
  });

  it('moves nothing when the transaction that handled the steps rolls back', async () => {
    await sql
      .transaction(async (tx) => {
        await advanceNotifierCheckpoint(tx, 'episode_events', '9');
        throw new Error('the handler failed');
      })
      .catch(() => undefined);
    expect(await position('episode_events')).toBe('4294967297');
  });

  it('creates no checkpoint for a source that has none', async () => {
    await advanceNotifierCheckpoint(sql, 'never-started', '7');
    const { rows } = await db.pool.query(`SELECT 1 FROM notifier_checkpoints WHERE source = 'never-started'`);
    expect(rows).toEqual([]);
  });
});
