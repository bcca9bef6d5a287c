import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CandidateSelection } from '@tokencircuit/governance';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { sqlLiteral } from '../../libs/storage/src/sql-literal.js';
import { pgSession } from '../../libs/storage/src/sql-database.js';
import {
  SELECT_CANDIDATE_STATES_STATEMENT,
  selectCandidateStates,
} from '../../libs/storage/src/state/select-candidate-states.js';
import { withTenant } from '../../libs/storage/src/with-tenant.js';

/**
 * The preflight read's cost follows what it selects: a principal's fleet keys of one resource are an index condition
 * on (tenant, principal, resource_id), not a filter over every fleet key of a principal that has thousands. What it
 * selects is proven by test/storage/candidate-selection.int.spec.ts; this spec holds its plan.
 */
describe('selectCandidateStates: the preflight read (real Postgres)', () => {
  let test: TestDatabase;
  const TENANT = 'busy-tenant';
  const PRINCIPAL = 'busy-principal';

  beforeAll(async () => {
    test = await createTestDatabase('storage_select_candidates');
    const row = (
      keyId: string,
      scope: 'fleet' | 'run',
      principal: string,
      resource: string | null,
      run: string | null,
    ) =>
      `(${sqlLiteral(keyId)}, ${sqlLiteral(TENANT)}, '${scope}', ${run === null ? 'NULL' : sqlLiteral(run)},
        ${sqlLiteral(principal)}, ${resource === null ? 'NULL' : sqlLiteral(resource)}, 'db_query', 'PERMISSION', false,
        'open', 0, 0, 'not_required', '{}'::json, 1)`;
    const columns = `(key_id, tenant, scope, run, principal, resource_id, tool_name, error_class, side_effect_boundary,
        status, budget, retry_count, verifier_status, state, version)`;
    // One busy principal of 3,000 fleet keys (one per resource) and one naming no resource, a run key of its call, and
    // 60,000 keys of other tenants, so that reading the principal's every key, or the table, costs what it would.
    await test.pool.query(
      `INSERT INTO failure_state ${columns} VALUES ${[
        row('fleet-none', 'fleet', PRINCIPAL, null, null),
        row('run-key', 'run', PRINCIPAL, 'resource-7', 'run-1'),
      ].join(', ')}`,
    );
    await test.pool.query(
      `INSERT INTO failure_state ${columns}
       SELECT 'fleet-' || g, ${sqlLiteral(TENANT)}, 'fleet', NULL, ${sqlLiteral(PRINCIPAL)}, 'resource-' || g, 'db_query',
              'PERMISSION', false, 'open', 0, 0, 'not_required', '{}'::json, 1
         FROM generate_series(1, 3000) AS g`,
    );
    await test.pool.query(
      `INSERT INTO failure_state ${columns}
       SELECT 'bulk-key-' || g, 'bulk-tenant-' || (g % 40), CASE WHEN g % 3 = 0 THEN 'fleet' ELSE 'run' END,
              CASE WHEN g % 3 = 0 THEN NULL ELSE 'bulk-run-' || (g / 3) END, 'bulk-principal-' || (g % 4000),
              'bulk-resource-' || (g % 9000), 'tool-' || (g % 12), 'TRANSIENT', false, 'open', 3, 0, 'none', '{}'::json, 1
         FROM generate_series(1, 60000) AS g`,
    );
    await test.pool.query('ANALYZE failure_state');
  });
  afterAll(async () => {
    await test?.drop();
  });

  const selection = (resourceId: string | null): CandidateSelection => ({
    tenant: TENANT,
    keyId: null,
    runKeys: { run: 'run-1', tool: 'db_query' },
    fleetKeys: { principal: PRINCIPAL, resourceId },
    resolved: 'effect_applied',
  });

  it("selects the principal's fleet key of the call's resource, or the one naming no resource, with the run's keys", async () => {
    const keysOf = (resourceId: string | null) =>
      withTenant(test.pool, TENANT, async (client) =>
        (await selectCandidateStates(pgSession(client), selection(resourceId))).map((s) => s.keyId).sort(),
      );
    expect(await keysOf('resource-17')).toEqual(['fleet-17', 'run-key']);
    expect(await keysOf(null)).toEqual(['fleet-none', 'run-key']);
    expect(await keysOf('resource-none-has')).toEqual(['run-key']);
  });

  it("probes the fleet index on all three columns in the custom and the generic plan, never the principal's every key", async () => {
    await withTenant(test.pool, TENANT, async (client) => {
      const session = pgSession(client);
      // Past the planner's five custom plans, with both kinds of resource id: the connection may settle on a generic plan.
      for (let i = 0; i < 8; i += 1) await selectCandidateStates(session, selection(i % 2 === 0 ? 'resource-3' : null));
      const plans: string[] = [];
      for (const mode of ['auto', 'force_generic_plan']) {
        for (const resource of ["'resource-17'", 'NULL']) {
          await client.query(`SET LOCAL plan_cache_mode = ${mode}`);
          const plan = await client.query<{ 'QUERY PLAN': string }>(
            `EXPLAIN EXECUTE ${SELECT_CANDIDATE_STATES_STATEMENT}(${sqlLiteral(TENANT)}, 'run-1', 'db_query',
               ${sqlLiteral(PRINCIPAL)}, ${resource}, 'effect_applied', NULL)`,
          );
          const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
          plans.push(text);
          expect(text, `${mode}, ${resource}`).not.toMatch(/Seq Scan on failure_state/);
          const fleetProbes = text.match(
            /Index (?:Only )?Scan (?:using|on) failure_state_fleet_principal_resource_idx[^\n]*\n\s*Index Cond: [^\n]*/g,
          );
          expect(fleetProbes, `${mode}, ${resource}:\n${text}`).not.toBeNull();
          // Every probe of the fleet index bounds the resource id (= or IS NULL): none reads all of the principal's keys.
          for (const probe of fleetProbes!) expect(probe, `${mode}, ${resource}`).toMatch(/resource_id (=|IS NULL)/);
        }
      }
      expect(plans).toHaveLength(4);
    });
  });

  it('reads a handful of index entries for a principal of 3,000 fleet keys', async () => {
    await withTenant(test.pool, TENANT, async (client) => {
      await selectCandidateStates(pgSession(client), selection('resource-17'));
      const analyzed = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE ${SELECT_CANDIDATE_STATES_STATEMENT}(
           ${sqlLiteral(TENANT)}, 'run-1', 'db_query', ${sqlLiteral(PRINCIPAL)}, 'resource-17', 'effect_applied', NULL)`,
      );
      const text = analyzed.rows.map((r) => r['QUERY PLAN']).join('\n');
      const buffers = Number(/Buffers: shared hit=(\d+)(?: read=(\d+))?/.exec(text)?.[1] ?? NaN);
      // With the principal's keys filtered instead of probed, the fleet arm alone visits every one of its index pages.
      expect(buffers, text).toBeLessThan(60);
    });
  });
});
