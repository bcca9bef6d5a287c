import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgSession } from '../../../libs/storage/src/sql-database.js';
import { readCurrentSchema } from '../../../libs/storage/src/replay/read-current-schema.js';

describe('readCurrentSchema (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_read_current_schema');
  });
  afterAll(async () => db?.drop());

  it('is public on a default connection', async () => {
    expect(await readCurrentSchema(pgSession(db.pool))).toBe('public');
  });

  it("is the first schema of the connection's search_path that exists", async () => {
    await db.pool.query('CREATE SCHEMA tenant_data');
    const client = new pg.Client({ connectionString: db.url, options: '-c search_path=missing,tenant_data,public' });
    await client.connect();
    try {
      expect(await readCurrentSchema(pgSession(client))).toBe('tenant_data');
    } finally {
      await client.end();
    }
  });
});
