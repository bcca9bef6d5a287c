import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { insertFailureState } from '../../libs/storage/src/spec-support/read-fixtures.js';
import { pgDatabase, type SqlDatabase } from '../../libs/storage/src/sql-database.js';
import { withTenant } from '../../libs/storage/src/with-tenant.js';

// The pool overload is specified in test/storage/tenant-isolation.int.spec.ts; this is the SqlDatabase one
// (what the embedded mode runs on PGlite), here on a real Postgres through pgDatabase.
describe('withTenant over a SqlDatabase', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;
  const keysAs = (tenant: string) =>
    withTenant(sql, tenant, async (session) => {
      const { rows } = await session.query<{ key_id: string }>('SELECT key_id FROM failure_state ORDER BY key_id');
      return rows.map((r) => r.key_id);
    });

  beforeAll(async () => {
    db = await createTestDatabase('tc_with_tenant_sql');
    sql = pgDatabase(db.pool);
    await insertFailureState(db.pool, { tenant: 'tenant-a', keyId: 'a1' });
    await insertFailureState(db.pool, { tenant: 'tenant-a', keyId: 'a2' });
    await insertFailureState(db.pool, { tenant: 'tenant-b', keyId: 'b1' });
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("sees only the tenant's rows, without any predicate", async () => {
    await expect(keysAs('tenant-a')).resolves.toEqual(['a1', 'a2']);
    await expect(keysAs('tenant-b')).resolves.toEqual(['b1']);
    await expect(keysAs('tenant-c')).resolves.toEqual([]);
  });

  it('is read-only and leaves neither role nor tenant on the connection afterwards', async () => {
    await expect(
      withTenant(sql, 'tenant-a', (session) => session.query(`UPDATE failure_state SET status = 'resolved'`)),
    ).rejects.toThrow(/read-only transaction/);
    for (let i = 0; i < 3; i++) {
      const { rows } = await db.pool.query<{ role: string; tenant: string | null }>(
        `SELECT current_user AS role, nullif(current_setting('tokencircuit.tenant', true), '') AS tenant`,
      );
      expect(rows[0]).toEqual({ role: 'postgres', tenant: null });
    }
  });

  it('refuses an empty tenant instead of running unscoped', async () => {
    await expect(withTenant(sql, ' ', async () => 1)).rejects.toThrow('tenant must be a non-empty string');
  });
});
