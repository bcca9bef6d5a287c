import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pingDatabase } from './ping-database.js';
import { pgSession } from './sql-database.js';

describe('pingDatabase', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_ping_database');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('resolves when the database answers and rejects when it cannot be reached', async () => {
    await expect(pingDatabase(pgSession(db.pool))).resolves.toBeUndefined();
    const ended = new pg.Pool({ connectionString: db.url });
    await ended.end();
    await expect(pingDatabase(pgSession(ended))).rejects.toThrow();
  });
});
