import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../libs/storage/src/sql-database.js';
import { databaseAnswers, pingDatabase } from '../../libs/storage/src/ping-database.js';

describe('pingDatabase and databaseAnswers (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_ping_database');
  });
  afterAll(async () => db?.drop());

  it('is true for a reachable database and false, without throwing, for one that is gone', async () => {
    expect(await pingDatabase(pgDatabase(db.pool))).toBe(true);
    const closed = new pg.Pool({ connectionString: db.url });
    await closed.end();
    expect(await pingDatabase(pgDatabase(closed))).toBe(false);
  });

  it('databaseAnswers resolves for a reachable database and rejects with the driver error for one that is gone', async () => {
    await expect(databaseAnswers(pgDatabase(db.pool))).resolves.toBeUndefined();
    const closed = new pg.Pool({ connectionString: db.url });
    await closed.end();
    await expect(databaseAnswers(pgDatabase(closed))).rejects.toThrow(/pool/i);
  });
});
