import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase, pgSession, type SqlSession } from '../../libs/storage/src/sql-database.js';
import { writeAsTenant } from '../../libs/storage/src/write-as-tenant.js';

// Both overloads: a node-postgres pool (the API in connected mode) and a SqlDatabase (PGlite when embedded; here a
// real Postgres through pgDatabase).
describe('writeAsTenant', () => {
  let db: TestDatabase;
  const overloads: Record<string, <T>(tenant: string, work: (session: SqlSession) => Promise<T>) => Promise<T>> = {
    pool: (tenant, work) => writeAsTenant(db.pool, tenant, (client) => work(pgSession(client))),
    SqlDatabase: (tenant, work) => writeAsTenant(pgDatabase(db.pool), tenant, work),
  };
  const rowsOf = async (table: string) =>
    (await db.pool.query<{ tenant: string }>(`SELECT tenant FROM ${table} ORDER BY tenant`)).rows.map((r) => r.tenant);

  beforeAll(async () => {
    db = await createTestDatabase('tc_write_as_tenant');
  });
  afterAll(async () => {
    await db?.drop();
  });

  for (const [name, write] of Object.entries(overloads)) {
    const table = `written_${name === 'pool' ? 'pool' : 'sql'}`;

    it(`over a ${name}: writes with the tenant set, commits, and leaves no tenant on the connection`, async () => {
      await db.pool.query(`CREATE TABLE ${table} (tenant text NOT NULL)`);
      await write('tenant-a', (session) =>
        session.query(`INSERT INTO ${table} VALUES (current_setting('tokencircuit.tenant'))`),
      );
      expect(await rowsOf(table)).toEqual(['tenant-a']);
      for (let i = 0; i < 3; i++) {
        const { rows } = await db.pool.query<{ tenant: string | null }>(
          `SELECT nullif(current_setting('tokencircuit.tenant', true), '') AS tenant`,
        );
        expect(rows[0]).toEqual({ tenant: null });
      }
    });

    it(`over a ${name}: rolls back everything when the work throws`, async () => {
      await db.pool.query(`CREATE TABLE ${table}_rollback (tenant text NOT NULL)`);
      await expect(
        write('tenant-b', async (session) => {
          await session.query(`INSERT INTO ${table}_rollback VALUES (current_setting('tokencircuit.tenant'))`);
          throw new Error('work failed');
        }),
      ).rejects.toThrow('work failed');
      expect(await rowsOf(`${table}_rollback`)).toEqual([]);
    });
  }
});
