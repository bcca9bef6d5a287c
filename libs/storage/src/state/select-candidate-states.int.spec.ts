import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { insertFailureState, readAs } from '../spec-support/read-fixtures.js';
import type { SqlSession } from '../sql-database.js';
import { selectCandidateStates, type CandidateCall } from './select-candidate-states.js';

const call: CandidateCall = { tenant: 'tenant-a', run: 'run-1', toolName: 'sql.query', principal: 'svc-reporting' };

describe('selectCandidateStates (the preflight read)', () => {
  let db: TestDatabase;
  const keysOf = (tenant: string, asked: CandidateCall, plain = false) =>
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

  it("returns the call's unresolved run keys, its principal's fleet keys, and resolved keys whose effect applied", async () => {
    await expect(keysOf('tenant-a', call)).resolves.toEqual(['fleet-mine', 'run-open', 'run-resolved-applied']);
  });

  it('answers the same through a session that cannot prepare statements', async () => {
    await expect(keysOf('tenant-a', call, true)).resolves.toEqual(['fleet-mine', 'run-open', 'run-resolved-applied']);
  });

  it('a call without a principal matches run keys only', async () => {
    await expect(keysOf('tenant-a', { ...call, principal: null })).resolves.toEqual([
      'run-open',
      'run-resolved-applied',
    ]);
  });

  it('is empty for a tenant, run or tool with no state', async () => {
    await expect(keysOf('tenant-c', { ...call, tenant: 'tenant-c' })).resolves.toEqual([]);
    await expect(keysOf('tenant-a', { ...call, run: 'run-none', principal: null })).resolves.toEqual([]);
  });

  it("never returns another tenant's rows, even when the call names that tenant (row-level security)", async () => {
    await expect(keysOf('tenant-a', { ...call, tenant: 'tenant-b' })).resolves.toEqual([]);
    await expect(keysOf('tenant-b', { ...call, tenant: 'tenant-b' })).resolves.toEqual(['b-fleet', 'b-run-open']);
  });
});
