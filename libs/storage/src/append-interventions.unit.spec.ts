import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendInterventions } from './append-interventions.js';
import { verifyTenantChain } from './verify-tenant-chain.js';
import { migratePglite } from './migrate-pglite.js';
import type { NewIntervention } from './new-intervention.js';

// The embedded mode's decision relay records its rounds through the same batch append on PGlite.
describe('appendInterventions on PGlite (embedded mode)', () => {
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

  it('appends a batch over two tenants as two verifiable chains, in TypeScript and in SQL', async () => {
    const results = await db.transaction((tx) =>
      appendInterventions(tx, [
        intervention('b-1', 'acme'),
        intervention('b-2', 'globex'),
        intervention('b-3', 'acme'),
      ]),
    );
    expect(results.map((r) => [r.intervention.id, r.appended])).toEqual([
      ['b-1', true],
      ['b-2', true],
      ['b-3', true],
    ]);
    expect(results[2]!.intervention.prevHash).toBe(results[0]!.intervention.hash);
    await expect(verifyTenantChain(db, 'acme')).resolves.toEqual({ ok: true, checked: 2 });
    const sql = await db.query('SELECT ok, checked::int AS checked FROM tokencircuit_verify_intervention_chain($1)', [
      'acme',
    ]);
    expect(sql.rows).toEqual([{ ok: true, checked: 2 }]);
  });

  it('returns a republished id as not appended', async () => {
    const [again] = await db.transaction((tx) => appendInterventions(tx, [intervention('b-1', 'acme')]));
    expect(again!.appended).toBe(false);
    await expect(verifyTenantChain(db, 'acme')).resolves.toEqual({ ok: true, checked: 2 });
  });
});
