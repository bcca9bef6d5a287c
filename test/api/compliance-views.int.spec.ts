import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { withTenant } from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { permissionDenied, toolCall, unavailable } from '@tokencircuit/contracts/testing';
import { seedFromEvents } from './support/seed.js';

type Seeded = Awaited<ReturnType<typeof seedFromEvents>>;

/** The compliance views of migration 0005 read under the reader's row-level security (security_invoker). */
describe('compliance SQL views (real Postgres)', () => {
  let database: TestDatabase;
  const seeded: Record<string, Seeded> = {};

  beforeAll(async () => {
    database = await createTestDatabase('tc_api_views');
    for (const tenant of ['acme', 'globex']) {
      const denied = ['svc-reporting', 'svc-etl'].map((principal, i) =>
        permissionDenied(
          tenant,
          toolCall({ agent: `agent-${i}`, run: `run-${i}`, principal, resourceId: 'finance.salaries' }),
        ),
      );
      const http = toolCall({
        run: 'run-http',
        tool: 'http.get',
        resourceClass: 'api_endpoint',
        resourceId: null,
        authScope: null,
        principal: null,
        sqlStatement: null,
      });
      seeded[tenant] = await seedFromEvents(database.pool, [...denied, unavailable(tenant, http)], DEFAULT_CONFIG);
    }
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('audit_interventions shows who was stopped, when, why and under which policy — for the reader’s tenant only', async () => {
    const rows = await withTenant(
      database.pool,
      'acme',
      async (client) => (await client.query('SELECT * FROM audit_interventions ORDER BY seq')).rows,
    );
    const expected = seeded.acme!.interventions;
    expect(rows.map((r) => r.intervention_id)).toEqual(expected.map((i) => i.id));
    for (const [i, row] of rows.entries()) {
      const source = expected[i]!;
      expect(row).toMatchObject({
        tenant: 'acme',
        agent: source.agent,
        run: source.run,
        principal: source.principal,
        failure_class: source.failureClass,
        next_action: source.nextAction,
        safety_justification: (source.artifact as { safety_justification: string }).safety_justification,
        policy_version: source.policyVersion,
        budget: (source.artifact as { budget: number }).budget,
      });
      expect(new Date(row.stopped_at as Date).toISOString()).toBe(source.issuedAt);
    }
  });

  it('audit_blocked_principals lists the fleet-wide blocks in force, with the latest justification', async () => {
    const rows = await withTenant(
      database.pool,
      'globex',
      async (client) => (await client.query('SELECT * FROM audit_blocked_principals ORDER BY principal')).rows,
    );
    const blocks = seeded.globex!.states.filter(
      (s) => s.key.scope === 'fleet' && (s.status === 'blocked' || s.status === 'exhausted'),
    );
    expect(rows.map((r) => r.principal)).toEqual(blocks.map((s) => s.key.principal).sort());
    for (const row of rows) {
      expect(row).toMatchObject({
        tenant: 'globex',
        failure_class: 'permission',
        status: 'blocked',
        resource_id: 'finance.salaries',
      });
      const latest = seeded.globex!.interventions.filter((i) => i.keyId === row.key_id).at(-1)!;
      expect(row.last_intervention_id).toBe(latest.id);
      expect(row.safety_justification).toBe((latest.artifact as { safety_justification: string }).safety_justification);
    }
  });

  it('shows nothing without a tenant, even though the views’ owner could read every row', async () => {
    const client = await database.pool.connect();
    try {
      await client.query('BEGIN READ ONLY');
      await client.query('SET LOCAL ROLE tokencircuit_audit');
      const interventions = await client.query('SELECT count(*)::int AS n FROM audit_interventions');
      const blocks = await client.query('SELECT count(*)::int AS n FROM audit_blocked_principals');
      expect([interventions.rows[0].n, blocks.rows[0].n]).toEqual([0, 0]);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    // The owner (a superuser here) sees both tenants: the isolation above is RLS on the reader, not an empty table.
    const all = await database.pool.query('SELECT DISTINCT tenant FROM audit_interventions ORDER BY tenant');
    expect(all.rows.map((r) => r.tenant)).toEqual(['acme', 'globex']);
  });
});
