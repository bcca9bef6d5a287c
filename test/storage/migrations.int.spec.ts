import pg from 'pg';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DatabaseUnreachableError, ensureDatabase, migrate, MIGRATIONS_FOLDER } from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';

const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
  entries: { tag: string }[];
};

/** Everything a migration can change, as sorted text: compare two of these to prove a run changed nothing. */
async function schemaFingerprint(pool: pg.Pool): Promise<Record<string, unknown[]>> {
  const queries: Record<string, string> = {
    columns: `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
               WHERE table_schema = 'public' ORDER BY 1, 2`,
    indexes: `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1`,
    constraints: `SELECT conrelid::regclass::text AS rel, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
                   WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2`,
    triggers: `SELECT tgrelid::regclass::text AS rel, tgname, tgenabled FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1, 2`,
    policies: `SELECT tablename, policyname, roles::text, cmd, qual, with_check FROM pg_policies ORDER BY 1, 2`,
    rls: `SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class
           WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' ORDER BY 1`,
    functions: `SELECT proname, md5(prosrc) AS body FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1`,
    grants: `SELECT table_name, grantee, privilege_type FROM information_schema.role_table_grants
              WHERE table_schema = 'public' AND grantee LIKE 'tokencircuit%' ORDER BY 1, 2, 3`,
    migrations: `SELECT id, hash, created_at FROM drizzle.__drizzle_migrations ORDER BY id`,
  };
  const fingerprint: Record<string, unknown[]> = {};
  for (const [name, text] of Object.entries(queries)) fingerprint[name] = (await pool.query(text)).rows;
  return fingerprint;
}

describe('migrations', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('tc_migrations', { migrate: false });
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('apply to an empty database, recording every migration of the journal once', async () => {
    await migrate(db.url);
    const { rows } = await db.pool.query('SELECT count(*)::int AS applied FROM drizzle.__drizzle_migrations');
    expect(rows[0]).toEqual({ applied: journal.entries.length });
  });

  it('create the six tables, the append-only triggers, the outbox NOTIFY trigger and forced RLS', async () => {
    const fingerprint = await schemaFingerprint(db.pool);
    expect(fingerprint.rls).toEqual([
      { relname: 'agent_events', relrowsecurity: true, relforcerowsecurity: true },
      { relname: 'audit_anchor_heads', relrowsecurity: true, relforcerowsecurity: true },
      // Budget crossings not yet published (0043): the decision service relays them.
      { relname: 'budget_publications', relrowsecurity: true, relforcerowsecurity: true },
      { relname: 'decision_outbox', relrowsecurity: true, relforcerowsecurity: true },
      // Ids only, written by the decision service's purge; no role but the writer can read it.
      { relname: 'decision_outbox_purged', relrowsecurity: false, relforcerowsecurity: false },
      { relname: 'episode_events', relrowsecurity: true, relforcerowsecurity: true },
      { relname: 'failure_state', relrowsecurity: true, relforcerowsecurity: true },
      { relname: 'interventions', relrowsecurity: true, relforcerowsecurity: true },
      // The embedded notifier's read position in episode_events; no tenant data.
      { relname: 'notifier_checkpoints', relrowsecurity: false, relforcerowsecurity: false },
      { relname: 'notifier_deliveries', relrowsecurity: true, relforcerowsecurity: true },
      // States pending outbox rows refer to, kept when failure_state moved past them (0039).
      { relname: 'outbox_states', relrowsecurity: true, relforcerowsecurity: true },
      // Run memories: no_progress rings before a finding (0044).
      { relname: 'progress_memories', relrowsecurity: true, relforcerowsecurity: true },
      { relname: 'projector_checkpoints', relrowsecurity: false, relforcerowsecurity: false },
      // API processes' leases of spend-line room (0045).
      { relname: 'spend_leases', relrowsecurity: true, relforcerowsecurity: true },
      // The spend ledger (0038): budget lines and reservations per tenant.
      { relname: 'spend_lines', relrowsecurity: true, relforcerowsecurity: true },
      { relname: 'spend_reservations', relrowsecurity: true, relforcerowsecurity: true },
    ]);
    expect(fingerprint.triggers).toEqual([
      { rel: 'agent_events', tgname: 'agent_events_refuse_delete', tgenabled: 'O' },
      { rel: 'agent_events', tgname: 'agent_events_refuse_truncate', tgenabled: 'O' },
      { rel: 'agent_events', tgname: 'agent_events_refuse_update', tgenabled: 'O' },
      { rel: 'decision_outbox', tgname: 'decision_outbox_notify', tgenabled: 'O' },
      { rel: 'episode_events', tgname: 'episode_events_refuse_delete', tgenabled: 'O' },
      { rel: 'episode_events', tgname: 'episode_events_refuse_truncate', tgenabled: 'O' },
      { rel: 'episode_events', tgname: 'episode_events_refuse_update', tgenabled: 'O' },
      // The preflight cache's change notices (0046): one per statement that changes failure_state.
      { rel: 'failure_state', tgname: 'failure_state_deleted_notify', tgenabled: 'O' },
      { rel: 'failure_state', tgname: 'failure_state_inserted_notify', tgenabled: 'O' },
      { rel: 'failure_state', tgname: 'failure_state_updated_notify', tgenabled: 'O' },
      { rel: 'interventions', tgname: 'interventions_refuse_delete', tgenabled: 'O' },
      { rel: 'interventions', tgname: 'interventions_refuse_truncate', tgenabled: 'O' },
      { rel: 'interventions', tgname: 'interventions_refuse_update', tgenabled: 'O' },
    ]);
    expect(fingerprint.indexes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          indexname: 'decision_outbox_pending_idx',
          indexdef: expect.stringContaining('WHERE ((published_at IS NULL) AND (parked_at IS NULL))'),
        }),
        expect.objectContaining({ indexname: 'failure_state_tenant_run_tool_idx' }),
        expect.objectContaining({ indexname: 'failure_state_tenant_principal_resource_idx' }),
        expect.objectContaining({ indexname: 'failure_state_fleet_principal_resource_idx' }),
        expect.objectContaining({ indexname: 'interventions_tenant_issued_at_idx' }),
        expect.objectContaining({ indexname: 'interventions_tenant_failure_class_issued_at_idx' }),
        expect.objectContaining({ indexname: 'interventions_tenant_tool_name_issued_at_idx' }),
        expect.objectContaining({ indexname: 'interventions_tenant_principal_issued_at_idx' }),
        expect.objectContaining({ indexname: 'interventions_tenant_run_idx' }),
        expect.objectContaining({ indexname: 'agent_events_tenant_run_occurred_at_idx' }),
      ]),
    );
  });

  it('are a no-op the second time: schema, grants and migration table unchanged', async () => {
    const before = await schemaFingerprint(db.pool);
    await migrate(db.url);
    expect(await schemaFingerprint(db.pool)).toEqual(before);
  });

  it('apply once when two processes migrate the same empty database at the same time', async () => {
    const other = await createTestDatabase('tc_migrations_race', { migrate: false });
    try {
      await Promise.all([migrate(other.url), migrate(other.url), migrate(other.url)]);
      const { rows } = await other.pool.query('SELECT count(*)::int AS applied FROM drizzle.__drizzle_migrations');
      expect(rows[0]).toEqual({ applied: journal.entries.length });
    } finally {
      await other.drop();
    }
  });

  it("apply into a named schema, history included, leaving the database's own tables and history alone", async () => {
    // The fingerprint's trigger and policy lists span every schema: the new schema's own are left out.
    const defaultSchemaOnly = async () => {
      const fingerprint = await schemaFingerprint(db.pool);
      const triggers = fingerprint.triggers!.filter((t) => !(t as { rel: string }).rel.startsWith('replay_1.'));
      return { ...fingerprint, triggers, policies: [] };
    };
    const before = await defaultSchemaOnly();
    await db.pool.query('CREATE SCHEMA replay_1');
    await migrate(db.url, { schema: 'replay_1' });
    const { rows: tables } = await db.pool.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'replay_1' ORDER BY 1",
    );
    expect(tables.map((t) => t.tablename)).toEqual(
      expect.arrayContaining(['agent_events', 'failure_state', 'decision_outbox']),
    );
    const { rows } = await db.pool.query('SELECT count(*)::int AS applied FROM replay_1.__drizzle_migrations');
    expect(rows[0]).toEqual({ applied: journal.entries.length });
    expect(await defaultSchemaOnly()).toEqual(before);
    await expect(migrate(db.url, { schema: 'replay 1' })).rejects.toThrow(/not a plain schema name/);
  });
});

describe('ensureDatabase', () => {
  it('creates a missing database once and reports whether it did', async () => {
    const url = new URL(serverUrl());
    url.pathname = `/tc_ensure_${Date.now().toString(36)}`;
    try {
      await expect(ensureDatabase(url.toString())).resolves.toBe(true);
      await expect(ensureDatabase(url.toString())).resolves.toBe(false);
    } finally {
      const admin = new pg.Client({ connectionString: serverUrl() });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${admin.escapeIdentifier(url.pathname.slice(1))} WITH (FORCE)`);
      await admin.end();
    }
  });

  it('names the host and port when the server cannot be reached', async () => {
    // Port 1 is never a Postgres server: the connection is refused at once.
    const unreachable = 'postgres://postgres@127.0.0.1:1/tokencircuit';
    await expect(ensureDatabase(unreachable)).rejects.toThrow(DatabaseUnreachableError);
    await expect(ensureDatabase(unreachable)).rejects.toThrow(
      'Cannot reach PostgreSQL at 127.0.0.1:1/tokencircuit (ECONNREFUSED)',
    );
    await expect(migrate(unreachable)).rejects.toThrow('Cannot reach PostgreSQL at 127.0.0.1:1');
  });

  it('refuses a URL that is not a postgres URL', async () => {
    await expect(ensureDatabase('mysql://root@localhost/db')).rejects.toThrow('must start with postgres://');
    await expect(ensureDatabase('not a url')).rejects.toThrow('not a valid URL');
  });
});

function serverUrl(): string {
  return inject('databaseUrl');
}
