import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDatabase } from '@tokencircuit/api-http';
import {
  appendInterventions,
  appendEpisodeEvents,
  ensureNotifierCheckpoint,
  lockNotifierCheckpoint,
  pgDatabase,
  readEpisodeStepsAfter,
  readTenantEventsById,
  SELECT_CANDIDATE_STATES_SQL,
  SERVICE_ROLES,
  setServiceRolePasswords,
  withTenant,
} from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { episodeStep } from '../../libs/storage/src/spec-support/episode-steps.js';
import { interventionFixture, seedTenantRows } from '../support/postgres-fixtures.js';

// Roles are cluster-wide and every spec sets the same password, so parallel specs cannot disagree.
const PASSWORD = 'tc-test-service-role-password';
const ENV = Object.fromEntries(SERVICE_ROLES.map(({ passwordVariable }) => [passwordVariable, PASSWORD]));

describe('least privilege: each service logs in as its own role, and tenant reads run under RLS', () => {
  let db: TestDatabase;
  const pools: pg.Pool[] = [];
  const poolAs = (role: string): pg.Pool => {
    const url = new URL(db.url);
    url.username = role;
    url.password = PASSWORD;
    const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
    pools.push(pool);
    return pool;
  };

  beforeAll(async () => {
    db = await createTestDatabase('tc_service_roles');
    await setServiceRolePasswords(db.url, ENV);
    await seedTenantRows(db.pool, 'tenant-a', 'a1');
    await seedTenantRows(db.pool, 'tenant-a', 'a2');
    await seedTenantRows(db.pool, 'tenant-b', 'b1');
    await appendEpisodeEvents(pgDatabase(db.pool), [
      episodeStep({ eventId: 'step-a', tenant: 'tenant-a', episodeId: 'episode-a' }),
      episodeStep({ eventId: 'step-b', tenant: 'tenant-b', episodeId: 'episode-b' }),
    ]);
    // One audited intervention per tenant, so a tenant's read of the audit trail has something of its own to see.
    const client = await db.pool.connect();
    try {
      await appendInterventions(client, [interventionFixture('intervention-a', 'tenant-a')]);
      await appendInterventions(client, [interventionFixture('intervention-b', 'tenant-b')]);
    } finally {
      client.release();
    }
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await db?.drop();
  });

  it('migrate creates a login role per service, none superuser, none BYPASSRLS, each in its group', async () => {
    const { rows } = await db.pool.query<{
      rolname: string;
      rolcanlogin: boolean;
      rolsuper: boolean;
      rolbypassrls: boolean;
      rolcreaterole: boolean;
      member: boolean;
    }>(
      `SELECT r.rolname, r.rolcanlogin, r.rolsuper, r.rolbypassrls, r.rolcreaterole,
              g.grp IS NULL OR pg_has_role(r.rolname, g.grp, 'MEMBER') AS member
         FROM pg_roles r JOIN unnest($1::text[], $2::text[]) AS g(login, grp) ON g.login = r.rolname
        ORDER BY r.rolname`,
      [SERVICE_ROLES.map((r) => r.role), SERVICE_ROLES.map((r) => r.member)],
    );
    // Every service, the notifier included (a role without a group: its grants are its own).
    expect(rows.map((r) => r.rolname).sort()).toEqual(SERVICE_ROLES.map((r) => r.role).sort());
    for (const row of rows) {
      expect(row).toMatchObject({
        rolcanlogin: true,
        rolsuper: false,
        rolbypassrls: false,
        rolcreaterole: false,
        member: true,
      });
    }
    // The API and the auditors are not writers: the policy that lets writers see every tenant is not theirs.
    const { rows: writers } = await db.pool.query<{ api: boolean; auditor: boolean }>(
      `SELECT pg_has_role('tokencircuit_api', 'tokencircuit_writer', 'MEMBER') AS api,
              pg_has_role('tokencircuit_auditor', 'tokencircuit_writer', 'MEMBER') AS auditor`,
    );
    expect(writers[0]).toEqual({ api: false, auditor: false });
  });

  it("the API's preflight query without its tenant condition still returns only the tenant in the setting", async () => {
    const api = poolAs('tokencircuit_api');
    const withoutTenant = SELECT_CANDIDATE_STATES_SQL.replace('tenant = $1 AND ', '');
    expect(withoutTenant.slice(withoutTenant.indexOf('WHERE'))).not.toContain('tenant');
    // Every row of the seed matches the rest of the predicate (run-1, sql.query, open).
    const keysOf = (tenant: string) =>
      withTenant(api, tenant, async (client) => {
        const { rows } = await client.query<{ state: unknown }>(
          withoutTenant
            .replace('SELECT state', 'SELECT key_id AS state')
            .replace(/\$(\d)/g, (_m, n) => `$${Number(n) - 1}`),
          ['run-1', 'sql.query', null, null, 'effect_applied', null],
        );
        return rows.map((r) => r.state).sort();
      });
    await expect(keysOf('tenant-b')).resolves.toEqual(['key-b1']);
    await expect(keysOf('tenant-a')).resolves.toEqual(['key-a1', 'key-a2']);
  });

  it("the API's audit reads without any tenant condition see only that tenant, on every table", async () => {
    const api = poolAs('tokencircuit_api');
    for (const table of ['agent_events', 'failure_state', 'decision_outbox', 'interventions']) {
      const tenants = await withTenant(api, 'tenant-b', async (client) => {
        const { rows } = await client.query<{ tenant: string }>(`SELECT DISTINCT tenant FROM ${table}`);
        return rows.map((r) => r.tenant);
      });
      // Exactly tenant-b: an empty answer would hold for "only that tenant" without showing the read works.
      expect(tenants, table).toEqual(['tenant-b']);
    }
  });

  it('the API role sees nothing without the tenant setting, cannot become a writer, and cannot write', async () => {
    const api = poolAs('tokencircuit_api');
    await expect(api.query('SELECT count(*)::int AS n FROM failure_state')).resolves.toMatchObject({
      rows: [{ n: 0 }],
    });
    await expect(api.query('SET ROLE tokencircuit_writer')).rejects.toThrow(/permission denied/);
    await expect(api.query(`UPDATE failure_state SET status = 'resolved'`)).rejects.toThrow(/permission denied/);
  });

  it('apiDatabase answers preflight candidates of its tenant only, connected as the API role', async () => {
    const apiDb = apiDatabase(poolAs('tokencircuit_api'));
    const call = { run: 'run-1', tool: 'sql.query', principal: null } as Parameters<typeof apiDb.states.candidates>[1];
    await expect(apiDb.states.candidates('tenant-b', call)).resolves.toHaveLength(1);
    await expect(apiDb.states.candidates('tenant-c', call)).resolves.toHaveLength(0);
  });

  it('the projector role writes every tenant through the writer policy', async () => {
    const projector = poolAs('tokencircuit_projector');
    await projector.query(
      `INSERT INTO agent_events (id, tenant, run, type, occurred_at, cloud_event)
       VALUES ('evt-p', 'tenant-c', 'run-1', 'dev.tokencircuit.tool_call.outcome.v1', now(), '{}')`,
    );
    const { rows } = await projector.query<{ n: number }>('SELECT count(DISTINCT tenant)::int AS n FROM failure_state');
    expect(rows[0]!.n).toBe(2);
  });

  // The notifier serves every tenant from one reader and one checkpoint (no tenant setting), like its
  // deliveries; it only reads the audit trail. Without its policy it saw no step and paged nobody.
  it("the notifier role reads every tenant's episode steps, and cannot write them", async () => {
    const notifier = pgDatabase(poolAs('tokencircuit_notifier'));
    const steps = await notifier.transaction((tx) => readEpisodeStepsAfter(tx, '0', 10));
    expect(steps.map((s) => [s.data.tenant, s.data.eventId])).toEqual([
      ['tenant-a', 'step-a'],
      ['tenant-b', 'step-b'],
    ]);
    // A new notifier starts after the newest step of every tenant, not at 0 (which would page history).
    await ensureNotifierCheckpoint(notifier, 'service-roles-latest', 'latest');
    expect(await notifier.transaction((tx) => lockNotifierCheckpoint(tx, 'service-roles-latest'))).toBe(steps[1]!.seq);
    await expect(
      notifier.transaction((tx) =>
        appendEpisodeEvents(tx, [episodeStep({ eventId: 'step-n', tenant: 'tenant-a', episodeId: 'episode-n' })]),
      ),
    ).rejects.toThrow(/permission denied/);
    await expect(notifier.query(`UPDATE episode_events SET level = 'advise'`)).rejects.toThrow(/permission denied/);
  });

  // A page names the refund: the notifier reads the causing events of the step it delivers, under the
  // tenant's row-level security (0036), so it never sees another tenant's events nor any without a tenant.
  it("the notifier role reads a step's causing events under that step's tenant only, and cannot write them", async () => {
    const notifier = pgDatabase(poolAs('tokencircuit_notifier'));
    const own = await readTenantEventsById(notifier, 'tenant-a', ['evt-a1', 'evt-a2', 'evt-b1']);
    expect(own.map((e) => e.id)).toEqual(['evt-a1', 'evt-a2']);
    // Asking for another tenant's id under tenant-a's setting finds nothing, whatever tenant the query names.
    const crossed = await notifier.transaction(async (tx) => {
      await tx.query(`SELECT set_config('tokencircuit.tenant', 'tenant-a', true)`);
      return (await tx.query<{ id: string }>(`SELECT id FROM agent_events WHERE tenant = 'tenant-b'`)).rows;
    });
    expect(crossed).toEqual([]);
    await expect(notifier.query('SELECT count(*)::int AS n FROM agent_events')).resolves.toMatchObject({
      rows: [{ n: 0 }],
    });
    await expect(
      notifier.query(
        `INSERT INTO agent_events (id, tenant, run, type, occurred_at, cloud_event) VALUES ('x', 'tenant-a', 'r', 't', now(), '{}')`,
      ),
    ).rejects.toThrow(/permission denied/);
  });

  it("the notifier's read policy is its own: the API role still sees no episode step without its tenant", async () => {
    const api = poolAs('tokencircuit_api');
    await expect(api.query('SELECT count(*)::int AS n FROM episode_events')).resolves.toMatchObject({
      rows: [{ n: 0 }],
    });
    const tenants = await withTenant(api, 'tenant-b', async (client) => {
      const { rows } = await client.query<{ tenant: string }>('SELECT tenant FROM episode_events');
      return rows.map((r) => r.tenant);
    });
    expect(tenants).toEqual(['tenant-b']);
  });
});
