import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ROLES, setServiceRolePasswords } from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { seedTenantRows } from '../support/postgres-fixtures.js';

// Roles are cluster-wide and every spec sets the same password, so parallel specs cannot disagree.
const PASSWORD = 'tc-test-service-role-password';
const ENV = Object.fromEntries(SERVICE_ROLES.map(({ passwordVariable }) => [passwordVariable, PASSWORD]));
const CHANGES = [
  ['UPDATE', `UPDATE agent_events SET cloud_event = '{"edited":true}' WHERE id = 'evt-a1'`],
  ['DELETE', `DELETE FROM agent_events WHERE id = 'evt-a1'`],
  ['TRUNCATE', 'TRUNCATE agent_events'],
] as const;

describe('agent_events is append-only for every service role, and for the owner', () => {
  let db: TestDatabase;
  const pools: pg.Pool[] = [];
  const poolAs = (role: string): pg.Pool => {
    const url = new URL(db.url);
    url.username = role;
    url.password = PASSWORD;
    const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
    pools.push(pool);
    return pool;
  };
  const storedEvent = async () =>
    (await db.pool.query(`SELECT id, cloud_event FROM agent_events WHERE id = 'evt-a1'`)).rows;

  beforeAll(async () => {
    db = await createTestDatabase('tc_agent_events_append_only');
    await setServiceRolePasswords(db.url, ENV);
    await seedTenantRows(db.pool, 'tenant-a', 'a1');
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await db?.drop();
  });

  it('no service login and no group role holds UPDATE, DELETE or TRUNCATE on agent_events', async () => {
    const roles = [...SERVICE_ROLES.map((r) => r.role), 'tokencircuit_writer', 'tokencircuit_audit'];
    const { rows } = await db.pool.query<{ role: string; privilege: string; held: boolean }>(
      `SELECT r AS role, p AS privilege, has_table_privilege(r, 'agent_events', p) AS held
         FROM unnest($1::text[]) AS r CROSS JOIN unnest(ARRAY['UPDATE', 'DELETE', 'TRUNCATE']) AS p`,
      [roles],
    );
    expect(rows).toHaveLength(roles.length * 3);
    expect(rows.filter((r) => r.held)).toEqual([]);
  });

  for (const { role } of SERVICE_ROLES) {
    it(`${role}: UPDATE, DELETE and TRUNCATE are refused (42501) and the row stays as written`, async () => {
      const before = await storedEvent();
      expect(before).toHaveLength(1);
      const pool = poolAs(role);
      for (const [verb, sql] of CHANGES) {
        // A writer sees every tenant; the audit roles read under RLS: give them the row's tenant so the
        // refusal cannot be an empty match.
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query(`SELECT set_config('tokencircuit.tenant', 'tenant-a', true)`);
          await expect(client.query(sql), `${role} ${verb}`).rejects.toMatchObject({ code: '42501' });
        } finally {
          await client.query('ROLLBACK');
          client.release();
        }
      }
      expect(await storedEvent()).toEqual(before);
    });
  }

  it('the writer group (what the projector and decision logins inherit) is refused too', async () => {
    const client = await db.pool.connect();
    try {
      for (const [verb, sql] of CHANGES) {
        await client.query('BEGIN');
        await client.query('SET LOCAL ROLE tokencircuit_writer');
        await expect(client.query(sql), verb).rejects.toMatchObject({ code: '42501' });
        await client.query('ROLLBACK');
      }
    } finally {
      client.release();
    }
  });

  // The connecting user is a superuser and owns the table: privileges do not bind it, the triggers do.
  it('the owner is refused by the triggers, which name the event', async () => {
    await expect(db.pool.query(CHANGES[0][1])).rejects.toThrow(
      /agent_events is append-only: UPDATE of event evt-a1 of tenant tenant-a \(seq \d+\) refused/,
    );
    await expect(db.pool.query(CHANGES[1][1])).rejects.toThrow('agent_events is append-only: DELETE of event evt-a1');
    await expect(db.pool.query(CHANGES[2][1])).rejects.toThrow('agent_events is append-only: TRUNCATE refused');
    expect(await storedEvent()).toHaveLength(1);
  });

  it('appending still works, and a duplicate delivery stays a no-op', async () => {
    const projector = poolAs('tokencircuit_projector');
    const insert = `INSERT INTO agent_events (id, tenant, run, type, occurred_at, cloud_event)
       VALUES ('evt-new', 'tenant-a', 'run-1', 'dev.tokencircuit.tool_call.outcome.v1', now(), '{}')
       ON CONFLICT (tenant, id, source) DO NOTHING RETURNING id`;
    await expect(projector.query(insert)).resolves.toMatchObject({ rowCount: 1 });
    await expect(projector.query(insert)).resolves.toMatchObject({ rowCount: 0 });
  });
});
