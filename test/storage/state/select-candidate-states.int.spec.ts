import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { insertFailureState, readAs } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import type { SqlSession } from '../../../libs/storage/src/sql-database.js';
import type { CandidateSelection } from '@tokencircuit/governance';
import { selectCandidateStates } from '../../../libs/storage/src/state/select-candidate-states.js';

/** What the core's preflightSelection gives for a call of svc-reporting in run-1 to sql.query, naming no resource. */
const call: CandidateSelection = {
  tenant: 'tenant-a',
  keyId: null,
  runKeys: { run: 'run-1', tool: 'sql.query' },
  fleetKeys: { principal: 'svc-reporting', resourceId: null },
  resolved: 'effect_applied',
};

describe('selectCandidateStates (the preflight read)', () => {
  let db: TestDatabase;
  const keysOf = (tenant: string, asked: CandidateSelection, plain = false) =>
    readAs(db.pool, tenant, async (session) => {
      // plain: a session that cannot prepare (as PGlite's) must give the same answer.
      const used: SqlSession = plain ? { query: (text, params) => session.query(text, params) } : session;
      const states = await selectCandidateStates(used, asked);
      return states.map((s) => (s as unknown as { keyId: string }).keyId).sort();
    });

  beforeAll(async () => {
    db = await createTestDatabase('tc_select_candidates');
    const a = { tenant: 'tenant-a' };
    await insertFailureState(db.pool, { ...a, keyId: 'run-open' });
    await insertFailureState(db.pool, { ...a, keyId: 'run-resolved', status: 'resolved' });
    await insertFailureState(db.pool, {
      ...a,
      keyId: 'run-resolved-applied',
      status: 'resolved',
      state: { keyId: 'run-resolved-applied', finding: 'effect_applied' } as never,
    });
    await insertFailureState(db.pool, { ...a, keyId: 'run-other-tool', toolName: 'http.get' });
    await insertFailureState(db.pool, { ...a, keyId: 'run-other-run', run: 'run-2' });
    await insertFailureState(db.pool, {
      ...a,
      keyId: 'fleet-mine',
      scope: 'fleet',
      run: null,
      principal: 'svc-reporting',
    });
    await insertFailureState(db.pool, {
      ...a,
      keyId: 'fleet-mine-other-resource',
      scope: 'fleet',
      run: null,
      principal: 'svc-reporting',
      resourceId: 'finance.ledger',
    });
    await insertFailureState(db.pool, {
      ...a,
      keyId: 'fleet-other',
      scope: 'fleet',
      run: null,
      principal: 'svc-other',
    });
    // A run key that names the principal is still judged by run and tool, not as a fleet key.
    await insertFailureState(db.pool, { ...a, keyId: 'run-named-principal', run: 'run-9', principal: 'svc-reporting' });
    await insertFailureState(db.pool, { tenant: 'tenant-b', keyId: 'b-run-open' });
    await insertFailureState(db.pool, {
      tenant: 'tenant-b',
      keyId: 'b-fleet',
      scope: 'fleet',
      principal: 'svc-reporting',
    });
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("returns the call's unresolved run keys, its principal's fleet keys for its resource, and resolved keys whose effect applied", async () => {
    await expect(keysOf('tenant-a', call)).resolves.toEqual(['fleet-mine', 'run-open', 'run-resolved-applied']);
  });

  it('answers the same through a session that cannot prepare statements', async () => {
    await expect(keysOf('tenant-a', call, true)).resolves.toEqual(['fleet-mine', 'run-open', 'run-resolved-applied']);
  });

  it('a call without a principal matches run keys only', async () => {
    await expect(keysOf('tenant-a', { ...call, fleetKeys: null })).resolves.toEqual([
      'run-open',
      'run-resolved-applied',
    ]);
  });

  it("with resolved: 'all' (the fold's selection) keeps resolved keys too; a named key id is selected", async () => {
    await expect(keysOf('tenant-a', { ...call, resolved: 'all' })).resolves.toEqual([
      'fleet-mine',
      'run-open',
      'run-resolved',
      'run-resolved-applied',
    ]);
    await expect(
      keysOf('tenant-a', { ...call, runKeys: null, fleetKeys: null, keyId: 'fleet-other', resolved: 'all' }),
    ).resolves.toEqual(['fleet-other']);
  });

  it('is empty for a tenant, run or tool with no state', async () => {
    await expect(keysOf('tenant-c', { ...call, tenant: 'tenant-c' })).resolves.toEqual([]);
    await expect(
      keysOf('tenant-a', { ...call, runKeys: { run: 'run-none', tool: 'sql.query' }, fleetKeys: null }),
    ).resolves.toEqual([]);
  });

  it("never returns another tenant's rows, even when the call names that tenant (row-level security)", async () => {
    await expect(keysOf('tenant-a', { ...call, tenant: 'tenant-b' })).resolves.toEqual([]);
    await expect(keysOf('tenant-b', { ...call, tenant: 'tenant-b' })).resolves.toEqual(['b-fleet', 'b-run-open']);
  });
});
