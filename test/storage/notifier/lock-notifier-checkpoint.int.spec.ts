import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase, type SqlDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { lockNotifierCheckpoint } from '../../../libs/storage/src/notifier/lock-notifier-checkpoint.js';

describe('lockNotifierCheckpoint (real Postgres)', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_lock_notifier_checkpoint');
    sql = pgDatabase(db.pool);
    await db.pool.query(`INSERT INTO notifier_checkpoints (source, position) VALUES ('episode_events', 5000000000)`);
  });
  afterAll(async () => db?.drop());

  it("reads '0' for a source without a checkpoint, and a bigint position exactly", async () => {
    expect(await sql.transaction((tx) => lockNotifierCheckpoint(tx, 'never-started'))).toBe('0');
    expect(await asRole(db.pool, 'tokencircuit_notifier', (tx) => lockNotifierCheckpoint(tx, 'episode_events'))).toBe(
      '5000000000',
    );
  });

  it('holds the checkpoint until the transaction ends: a second reader of the source waits', async () => {
    const error = await sql.transaction(async (first) => {
      await lockNotifierCheckpoint(first, 'episode_events');
      return sql
        .transaction(async (second) => {
          // Fails instead of waiting forever: the lock is held, not merely slow to come.
          await second.query("SET LOCAL lock_timeout = '200ms'");
          return lockNotifierCheckpoint(second, 'episode_events');
        })
        .catch((e: unknown) => e);
    });
    expect((error as { code?: string }).code).toBe('55P03');
    expect(await sql.transaction((tx) => lockNotifierCheckpoint(tx, 'episode_events'))).toBe('5000000000');
  });
});
