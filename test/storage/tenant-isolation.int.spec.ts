import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendInterventions, withTenant } from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { interventionFixture, seedTenantRows } from '../support/postgres-fixtures.js';

const RLS_TABLES = ['agent_events', 'failure_state', 'decision_outbox', 'interventions'] as const;

async function countByTenant(client: pg.ClientBase | pg.Pool, table: string): Promise<Record<string, number>> {
  const { rows } = await client.query<{ tenant: string; n: number }>(
    `SELECT tenant, count(*)::int AS n FROM ${table} GROUP BY tenant ORDER BY tenant`,
  );
  return Object.fromEntries(rows.map((r) => [r.tenant, r.n]));
}

describe("row-level security: tenants never see each other's rows", () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('tc_tenant_isolation');
    // Tenant A has two rows in every table, tenant B one: a leak would show up as a wrong count.
    await seedTenantRows(db.pool, 'tenant-a', 'a1');
    await seedTenantRows(db.pool, 'tenant-a', 'a2');
    await seedTenantRows(db.pool, 'tenant-b', 'b1');
    const client = await db.pool.connect();
    try {
      for (const [id, tenant] of [
        ['ia-1', 'tenant-a'],
        ['ia-2', 'tenant-a'],
        ['ib-1', 'tenant-b'],
      ] as const) {
        await appendInterventions(client, [interventionFixture(id, tenant)]);
      }
    } finally {
      client.release();
    }
  });

  afterAll(async () => {
    await db?.drop();
  });

  it.each(RLS_TABLES)("%s: the audit role of tenant A reads all of A's rows and none of B's", async (table) => {
    await expect(withTenant(db.pool, 'tenant-a', (client) => countByTenant(client, table))).resolves.toEqual({
      'tenant-a': 2,
    });
    await expect(withTenant(db.pool, 'tenant-b', (client) => countByTenant(client, table))).resolves.toEqual({
      'tenant-b': 1,
    });
  });

  it.each(RLS_TABLES)('%s: even asking for B by name returns nothing to A', async (table) => {
    const rows = await withTenant(
      db.pool,
      'tenant-a',
      async (client) => (await client.query(`SELECT * FROM ${table} WHERE tenant = 'tenant-b'`)).rows,
    );
    expect(rows).toEqual([]);
  });

  it.each(RLS_TABLES)('%s: the audit role without a tenant setting sees nothing', async (table) => {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL ROLE tokencircuit_audit');
      await expect(countByTenant(client, table)).resolves.toEqual({});
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('the audit role cannot read the projector checkpoints at all', async () => {
    await expect(
      withTenant(db.pool, 'tenant-a', (client) => client.query('SELECT * FROM projector_checkpoints')),
    ).rejects.toThrow('permission denied for table projector_checkpoints');
  });

  it("the audit role cannot write, not even its own tenant's rows", async () => {
    await expect(
      withTenant(db.pool, 'tenant-a', (client) =>
        client.query(`UPDATE failure_state SET status = 'resolved' WHERE tenant = 'tenant-a'`),
      ),
    ).rejects.toThrow(/read-only transaction|permission denied/);
  });

  it('the role and tenant do not outlive the transaction on the pooled connection', async () => {
    await withTenant(db.pool, 'tenant-a', async () => undefined);
    // The pool may hand out any connection; ask every one of them.
    const clients = await Promise.all(Array.from({ length: 3 }, () => db.pool.connect()));
    try {
      for (const client of clients) {
        const { rows } = await client.query(
          `SELECT current_user AS role, current_setting('tokencircuit.tenant', true) AS tenant`,
        );
        expect(rows[0]).toMatchObject({ role: 'postgres' });
        expect(rows[0].tenant ?? '').toBe('');
      }
    } finally {
      for (const client of clients) client.release();
    }
  });

  it('withTenant refuses an empty tenant instead of running unscoped', async () => {
    await expect(withTenant(db.pool, '  ', async () => 1)).rejects.toThrow('tenant must be a non-empty string');
  });

  it("the tenant chain can be verified by the tenant's own auditor through SQL", async () => {
    const [mine, theirs] = await withTenant(db.pool, 'tenant-a', async (client) => [
      (await client.query(`SELECT ok, checked::int FROM tokencircuit_verify_intervention_chain('tenant-a')`)).rows[0],
      (await client.query(`SELECT ok, checked::int FROM tokencircuit_verify_intervention_chain('tenant-b')`)).rows[0],
    ]);
    expect(mine).toEqual({ ok: true, checked: 2 });
    // B's rows are invisible to A's auditor, so there is nothing to verify (and nothing leaks).
    expect(theirs).toEqual({ ok: true, checked: 0 });
  });

  describe('the writer path: a non-superuser application login under FORCE RLS', () => {
    // Roles are cluster-wide: a uniquely named login, dropped afterwards.
    const login = `tc_app_${randomBytes(4).toString('hex')}`;
    let app: pg.Pool;

    beforeAll(async () => {
      await db.pool.query(`CREATE ROLE ${login} LOGIN IN ROLE tokencircuit_writer`);
      const url = new URL(db.url);
      url.username = login;
      app = new pg.Pool({ connectionString: url.toString(), max: 2 });
    });

    afterAll(async () => {
      await app?.end();
      await db.pool.query(`DROP ROLE IF EXISTS ${login}`);
    });

    it('writes and reads every tenant through its tokencircuit_writer membership', async () => {
      await seedTenantRows(app, 'tenant-c', 'c1');
      await seedTenantRows(app, 'tenant-d', 'd1');
      for (const table of RLS_TABLES.filter((t) => t !== 'interventions')) {
        await expect(countByTenant(app, table)).resolves.toMatchObject({
          'tenant-a': 2,
          'tenant-b': 1,
          'tenant-c': 1,
          'tenant-d': 1,
        });
      }
    });

    it('appends interventions for any tenant but cannot change them', async () => {
      const client = await app.connect();
      try {
        await appendInterventions(client, [interventionFixture('ic-1', 'tenant-c')]);
        await expect(client.query(`DELETE FROM interventions WHERE id = 'ic-1'`)).rejects.toThrow('permission denied');
      } finally {
        client.release();
      }
    });

    it("a login without the writer role sees no tenant's rows", async () => {
      const outsider = `tc_outsider_${randomBytes(4).toString('hex')}`;
      await db.pool.query(`CREATE ROLE ${outsider} LOGIN`);
      await db.pool.query(`GRANT SELECT ON agent_events TO ${outsider}`);
      const url = new URL(db.url);
      url.username = outsider;
      const client = new pg.Client({ connectionString: url.toString() });
      try {
        await client.connect();
        await expect(countByTenant(client, 'agent_events')).resolves.toEqual({});
      } finally {
        await client.end();
        await db.pool.query(`REVOKE ALL ON agent_events FROM ${outsider}`);
        await db.pool.query(`DROP ROLE ${outsider}`);
      }
    });
  });
});
