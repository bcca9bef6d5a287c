import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendInterventions } from './append-interventions.js';
import { verifyTenantChain } from './verify-tenant-chain.js';
import { migratePglite } from './migrate-pglite.js';
import { MIGRATIONS_FOLDER } from './migrations-folder.js';
import type { NewIntervention } from './new-intervention.js';

const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
  entries: unknown[];
};

// Embedded mode runs the same migrations on PGlite (Postgres compiled to WASM): every statement,
// including roles, row-level security, triggers, NOTIFY and the SQL chain verifier, must apply there.
describe('migrations on PGlite (embedded mode)', () => {
  let db: PGlite;

  beforeAll(async () => {
    db = new PGlite();
    await migratePglite(db);
  }, 60_000);

  afterAll(async () => {
    await db.close();
  });

  const intervention = (id: string, tenant: string): NewIntervention => ({
    id,
    tenant,
    run: 'run-1',
    agent: null,
    level: 'block',
    failureClass: 'permission',
    keyId: `fleet:${tenant}:svc:finance`,
    toolName: 'sql.query',
    resourceClass: 'sql_namespace',
    authScope: null,
    principal: 'svc',
    resourceId: 'finance',
    nextAction: 'stop_request_authorization',
    artifact: { failure_class: 'permission', budget: 0, ratio: 0.25 },
    policyVersion: 'sha256:p',
    stateVersion: 1,
    causingEventIds: ['e-1', 'e-2'],
    issuedAt: '2026-01-01T00:00:00.123456Z',
  });

  it('applies every migration and records each once; a second run is a no-op', async () => {
    const before = await db.query('SELECT hash, created_at FROM drizzle.__drizzle_migrations ORDER BY id');
    await migratePglite(db);
    const after = await db.query('SELECT hash, created_at FROM drizzle.__drizzle_migrations ORDER BY id');
    expect(after.rows).toEqual(before.rows);
    expect(after.rows).toHaveLength(journal.entries.length);
  });

  it('creates the audit and writer roles and forces row-level security on the tenant tables', async () => {
    const roles = await db.query<{ rolname: string }>(
      `SELECT rolname FROM pg_roles WHERE rolname IN ('tokencircuit_audit', 'tokencircuit_writer') ORDER BY rolname`,
    );
    expect(roles.rows.map((r) => r.rolname)).toEqual(['tokencircuit_audit', 'tokencircuit_writer']);
    const forced = await db.query<{ relname: string }>(
      `SELECT relname FROM pg_class WHERE relrowsecurity AND relforcerowsecurity ORDER BY relname`,
    );
    expect(forced.rows.map((r) => r.relname)).toEqual([
      'agent_events',
      'audit_anchor_heads',
      'budget_publications',
      'decision_outbox',
      'episode_events',
      'failure_state',
      'interventions',
      'notifier_deliveries',
      'outbox_states',
      'progress_memories',
      'spend_leases',
      'spend_lines',
      'spend_reservations',
    ]);
  });

  it('appends a verifiable chain, and the SQL verifier agrees with the TypeScript one', async () => {
    await db.transaction(async (tx) => {
      await appendInterventions(tx, [intervention('p-1', 'acme')]);
      await appendInterventions(tx, [intervention('p-2', 'acme')]);
    });
    await expect(verifyTenantChain(db, 'acme')).resolves.toEqual({ ok: true, checked: 2 });
    const sql = await db.query('SELECT ok, checked::int AS checked FROM tokencircuit_verify_intervention_chain($1)', [
      'acme',
    ]);
    expect(sql.rows).toEqual([{ ok: true, checked: 2 }]);
  });

  it('refuses to delete from the audit trail', async () => {
    await expect(db.query(`DELETE FROM interventions WHERE id = 'p-1'`)).rejects.toThrow(
      /append-only audit trail: DELETE/,
    );
  });

  it('shows the audit role only its own tenant', async () => {
    await db.query(
      `INSERT INTO agent_events (id, tenant, type, occurred_at, cloud_event)
       VALUES ('pe-a', 'tenant-a', 't', now(), '{}'), ('pe-b', 'tenant-b', 't', now(), '{}')`,
    );
    const seen = await db.transaction(async (tx) => {
      await tx.query('SET LOCAL ROLE tokencircuit_audit');
      await tx.query(`SELECT set_config('tokencircuit.tenant', 'tenant-a', true)`);
      return (await tx.query<{ id: string }>('SELECT id FROM agent_events')).rows.map((r) => r.id);
    });
    expect(seen).toEqual(['pe-a']);
  });

  it('notifies decision_outbox listeners with the new row id', async () => {
    const received: string[] = [];
    const unlisten = await db.listen('decision_outbox', (id) => received.push(id));
    await db.query(
      `INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot) VALUES ('o-1', 'acme', 'k', 1, '{}')`,
    );
    await unlisten();
    expect(received).toEqual(['o-1']);
  });
});
