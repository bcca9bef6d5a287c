import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDatabase } from '@tokencircuit/api-http';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { insertFailureState } from '../../libs/storage/src/spec-support/read-fixtures.js';

/**
 * The API's one-message tenant read (every ingest request's conflict check) on real Postgres: the same scope as
 * withTenant's three round trips — read only, the audit role, row-level security for the tenant — and nothing left
 * on the pooled connection, whether the statement succeeds or fails. The pool holds one connection, so every
 * statement below runs on the connection the previous one used.
 */
describe('TenantScope.readAtOnce on a pool (real Postgres)', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let db: ReturnType<typeof apiDatabase>;

  const readAtOnce = (tenant: string, statement: (literal: (value: string) => string) => string) =>
    db.tenants.readAtOnce!(tenant, statement);
  const connection = async () =>
    (
      await pool.query<{ role: string; tenant: string | null; readOnly: string }>(
        `SELECT current_user AS role, nullif(current_setting('tokencircuit.tenant', true), '') AS tenant,
                current_setting('transaction_read_only') AS "readOnly"`,
      )
    ).rows[0];

  beforeAll(async () => {
    database = await createTestDatabase('tc_read_at_once');
    await insertFailureState(database.pool, { tenant: 'tenant-a', keyId: 'a1' });
    await insertFailureState(database.pool, { tenant: 'tenant-a', keyId: 'a2' });
    await insertFailureState(database.pool, { tenant: "tenant-'b", keyId: 'b1' });
    pool = new pg.Pool({ connectionString: database.url, max: 1 });
    db = apiDatabase(pool, { candidateCacheEntries: 0 });
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it("sees only the tenant's rows, without any predicate, as the audit role in a read-only transaction", async () => {
    const keys = (tenant: string) =>
      readAtOnce(tenant, () => 'SELECT key_id FROM failure_state ORDER BY key_id').then((rows) =>
        rows.map((r) => r.key_id),
      );
    await expect(keys('tenant-a')).resolves.toEqual(['a1', 'a2']);
    await expect(keys("tenant-'b")).resolves.toEqual(['b1']);
    await expect(keys('tenant-c')).resolves.toEqual([]);
    await expect(
      readAtOnce(
        'tenant-a',
        () =>
          `SELECT current_user AS role, current_setting('tokencircuit.tenant') AS tenant, current_setting('transaction_read_only') AS "readOnly"`,
      ),
    ).resolves.toEqual([{ role: 'tokencircuit_audit', tenant: 'tenant-a', readOnly: 'on' }]);
  });

  it('quotes what it is given: a literal with quotes and backslashes arrives as it was', async () => {
    const text = `it's a \\"test\\" \\\\ ' ''`;
    await expect(readAtOnce("tenant-'b", (literal) => `SELECT ${literal(text)}::text AS text`)).resolves.toEqual([
      { text },
    ]);
  });

  it('refuses a write, and a failing statement leaves neither role, tenant nor a transaction on the connection', async () => {
    await expect(readAtOnce('tenant-a', () => `UPDATE failure_state SET status = 'resolved'`)).rejects.toThrow(
      /read-only transaction/,
    );
    await expect(connection()).resolves.toEqual({ role: 'postgres', tenant: null, readOnly: 'off' });
    await expect(readAtOnce('tenant-a', () => 'SELECT 1 / 0')).rejects.toThrow(/division by zero/);
    await expect(connection()).resolves.toEqual({ role: 'postgres', tenant: null, readOnly: 'off' });
    await readAtOnce('tenant-a', () => 'SELECT 1');
    await expect(connection()).resolves.toEqual({ role: 'postgres', tenant: null, readOnly: 'off' });
    const { rows } = await database.pool.query<{ status: string }>(`SELECT DISTINCT status FROM failure_state`);
    expect(rows.map((r) => r.status)).not.toContain('resolved');
  });
});
