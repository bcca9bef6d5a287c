import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { lockCoordinates } from '../../../libs/storage/src/projection/lock-coordinates.js';

describe('lockCoordinates (real Postgres)', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase('storage_lock_coordinates');
  });
  afterAll(async () => {
    await test?.drop();
  });

  it('holds a transaction-scoped lock per name: a second writer on a shared name waits for the first commit', async () => {
    const db = pgDatabase(test.pool);
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const firstLocked = new Promise<void>((resolve) => (locked = resolve));
    const first = db.transaction(async (tx) => {
      await lockCoordinates(tx, ['principal\u001ft\u001fsvc-1', 'run\u001ft\u001fr-1', 'run\u001ft\u001fr-1']);
      locked();
      await held;
      order.push('first commits');
    });
    await firstLocked;
    const second = db.transaction(async (tx) => {
      await lockCoordinates(tx, ['run\u001ft\u001fr-2', 'principal\u001ft\u001fsvc-1']);
      order.push('second locked');
    });
    // (pg_locks is server-wide: only this spec's database counts.) The second session is seen waiting on an advisory lock before the first one lets go.
    for (;;) {
      const { rows } = await test.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database
          WHERE d.datname = current_database() AND l.locktype = 'advisory' AND NOT l.granted`,
      );
      if (rows[0]!.n > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first commits', 'second locked']);
    const { rows } = await test.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database
        WHERE d.datname = current_database() AND l.locktype = 'advisory'`,
    );
    expect(rows[0]!.n, 'released at commit').toBe(0);
  });

  it('is a no-op without names', async () => {
    await expect(lockCoordinates(pgDatabase(test.pool), [])).resolves.toBeUndefined();
  });
});
