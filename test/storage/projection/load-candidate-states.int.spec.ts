import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGovernance, DEFAULT_CONFIG, type FailureState } from '@tokencircuit/governance';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import type { AgentEvent } from '@tokencircuit/contracts';
import { SpecAgent, Timeline } from '@tokencircuit/contracts/testing';
import { pgDatabase, pgSession } from '../../../libs/storage/src/sql-database.js';
import { sqlLiteral } from '../../../libs/storage/src/sql-literal.js';
import { loadCandidateStates } from '../../../libs/storage/src/projection/load-candidate-states.js';
import { prepareFold, savePreparedFold } from '../../../libs/storage/src/projection/save-fold.js';

describe('loadCandidateStates (real Postgres)', () => {
  let test: TestDatabase;
  let states: FailureState[];
  beforeAll(async () => {
    test = await createTestDatabase('storage_load_states');
    states = [
      ...createGovernance(DEFAULT_CONFIG)
        .replay(generateTrace({ events: 600, seed: 8 }))
        .states.values(),
    ];
    await savePreparedFold(
      pgDatabase(test.pool),
      prepareFold({
        states,
        outbox: [],
        checkpoints: { group: 'g', topic: 't', next: new Map() },
      }),
    );
  });
  afterAll(async () => {
    await test?.drop();
  });

  it("loads a run's keys of one tool, a principal's fleet keys of one resource and named keys, and nothing else", async () => {
    const db = pgDatabase(test.pool);
    // A run with keys of more than one tool, a principal with fleet keys of more than one resource.
    const run = states.find(
      (r) =>
        r.key.scope === 'run' &&
        states.some(
          (s) =>
            s.key.tenant === r.key.tenant &&
            s.key.run === r.key.run &&
            s.key.equivalenceKey.tool_name !== r.key.equivalenceKey.tool_name,
        ),
    )!;
    const fleet = states.find(
      (f) =>
        f.key.scope === 'fleet' &&
        states.some(
          (s) =>
            s.key.scope === 'fleet' &&
            s.key.tenant === f.key.tenant &&
            s.key.principal === f.key.principal &&
            s.key.resourceId !== f.key.resourceId,
        ),
    )!;
    const named = states.find((s) => s.keyId !== run.keyId && s.keyId !== fleet.keyId)!;
    const tool = run.key.equivalenceKey.tool_name;
    const expected = states.filter(
      (s) =>
        (s.key.tenant === run.key.tenant && s.key.run === run.key.run && s.key.equivalenceKey.tool_name === tool) ||
        (s.key.scope === 'fleet' &&
          s.key.tenant === fleet.key.tenant &&
          s.key.principal === fleet.key.principal &&
          s.key.resourceId === fleet.key.resourceId) ||
        s.keyId === named.keyId,
    );
    // Narrower than the prefixes: the same run's other tools and the principal's other resources stay out.
    const prefixes = states.filter(
      (s) =>
        (s.key.tenant === run.key.tenant && s.key.run === run.key.run) ||
        (s.key.scope === 'fleet' && s.key.tenant === fleet.key.tenant && s.key.principal === fleet.key.principal),
    );
    expect(prefixes.some((s) => !expected.includes(s))).toBe(true);
    const loaded = await db.transaction((tx) =>
      loadCandidateStates(tx, {
        runTools: [[run.key.tenant, run.key.run!, tool]],
        fleetResources: [[fleet.key.tenant, fleet.key.principal!, fleet.key.resourceId]],
        keyIds: [named.keyId, 'no-such-key'],
      }),
    );
    expect(loaded.states).toEqual(new Map(expected.map((s) => [s.keyId, s])));
  });

  it('selects the fleet keys that name no resource by a null resource id', async () => {
    const db = pgDatabase(test.pool);
    const fleet = states.find((s) => s.key.scope === 'fleet')!;
    const unnamed = { ...fleet, keyId: `${fleet.keyId}|no-resource`, key: { ...fleet.key, resourceId: null } };
    await savePreparedFold(
      db,
      prepareFold({ states: [unnamed], outbox: [], checkpoints: { group: 'g', topic: 't', next: new Map() } }),
    );
    const loaded = await db.transaction((tx) =>
      loadCandidateStates(tx, {
        runTools: [],
        fleetResources: [[fleet.key.tenant, fleet.key.principal!, null]],
        keyIds: [],
      }),
    );
    expect([...loaded.states.keys()]).toEqual([unnamed.keyId]);
  });

  it('takes no row locks: the advisory locks of the coordinates (lockNamesOf) serialise the writers', async () => {
    const db = pgDatabase(test.pool);
    const target = states[0]!;
    await db.transaction(async (tx) => {
      await loadCandidateStates(tx, { runTools: [], fleetResources: [], keyIds: [target.keyId] });
      const other = await test.pool.connect();
      try {
        await other.query('BEGIN');
        const locked = await other.query('SELECT key_id FROM failure_state WHERE key_id = $1 FOR UPDATE SKIP LOCKED', [
          target.keyId,
        ]);
        // A row lock wrote a WAL record (and after a checkpoint a page image) for every candidate row, moved or not.
        expect(locked.rows).toEqual([{ key_id: target.keyId }]);
        await other.query('ROLLBACK');
      } finally {
        other.release();
      }
    });
  });

  it('keeps the run memories a fold wrote (migration 0044), loads them by run and tool with the states, and drops one whose key was opened', async () => {
    const db = pgDatabase(test.pool);
    const timeline = new Timeline();
    const agent = new SpecAgent(timeline, 'acme', 'researcher', 'run-memory', { effect: 'read' });
    const search = (result: string) => {
      const event = agent.succeeded(agent.call('search', { arguments: { q: 'q3' } }), { empty: false });
      return { ...event, data: { ...event.data, resultDigest: `sha256:${result}` } } as AgentEvent;
    };
    const fetch = agent.succeeded(agent.call('fetch', { arguments: { url: 'u' } }), { empty: false });
    const events = [
      search('a'),
      search('b'),
      { ...fetch, data: { ...fetch.data, resultDigest: 'sha256:f' } } as AgentEvent,
    ];
    const { memories } = createGovernance(DEFAULT_CONFIG).replay(events);
    expect(memories.size).toBe(2);
    const writes = [...memories].map(([id, memory]) => ({ id, memory }));
    const checkpoints = { group: 'g', topic: 't', next: new Map<number, bigint>() };
    await savePreparedFold(db, prepareFold({ states: [], outbox: [], memories: writes, checkpoints }));
    const at = { runTools: [['acme', 'run-memory', 'search'] as const], fleetResources: [], keyIds: [] };
    const loaded = await db.transaction((tx) => loadCandidateStates(tx, at));
    const searchMemory = writes.find((w) => w.memory.origin.key.equivalenceKey.tool_name === 'search')!;
    // Read back as written (json keeps key order), and only the search tool's memory.
    expect(loaded.memories).toEqual(new Map([[searchMemory.id, searchMemory.memory]]));
    expect(JSON.stringify(loaded.memories.get(searchMemory.id))).toBe(JSON.stringify(searchMemory.memory));
    await savePreparedFold(
      db,
      prepareFold({ states: [], outbox: [], memories: [{ id: searchMemory.id, memory: null }], checkpoints }),
    );
    const after = await db.transaction((tx) => loadCandidateStates(tx, at));
    expect(after.memories.size).toBe(0);
  });

  it('sends back a state the caller holds at the stored version as the one it holds, and any other version from the table', async () => {
    const db = pgDatabase(test.pool);
    const [current, stale] = states.filter((s) => s.key.scope === 'run').slice(0, 2);
    // Held copies marked so the answer shows where each came from.
    const heldCurrent = { ...current!, classificationReason: 'held, not read' } as FailureState;
    const heldStale = { ...stale!, version: stale!.version - 1, classificationReason: 'held, stale' } as FailureState;
    const at = {
      runTools: [current!, stale!].map((s) => [s.key.tenant, s.key.run!, s.key.equivalenceKey.tool_name] as const),
      fleetResources: [],
      keyIds: [],
    };
    const loaded = await db.transaction((tx) =>
      loadCandidateStates(
        tx,
        at,
        new Map([
          [current!.keyId, heldCurrent],
          [stale!.keyId, heldStale],
        ]),
      ),
    );
    expect(loaded.states.get(current!.keyId)).toBe(heldCurrent);
    expect(loaded.states.get(stale!.keyId)).toEqual(stale);
    // The rest of the selection as without anything held.
    const plain = await db.transaction((tx) => loadCandidateStates(tx, at));
    expect([...loaded.states.keys()].sort()).toEqual([...plain.states.keys()].sort());
  });

  it('runs prepared, and both its custom and its generic plan probe indexes per coordinate on a large table (no sequential scan)', async () => {
    // Other tenants' keys make a sequential scan of failure_state cost what it would in a fleet: 60,000 rows.
    await test.pool.query(
      `INSERT INTO failure_state (key_id, tenant, scope, run, principal, resource_id, tool_name, error_class,
              side_effect_boundary, status, budget, retry_count, verifier_status, state, version)
       SELECT 'bulk-key-' || g, 'bulk-tenant-' || (g % 40), CASE WHEN g % 3 = 0 THEN 'fleet' ELSE 'run' END,
              CASE WHEN g % 3 = 0 THEN NULL ELSE 'bulk-run-' || (g / 3) END, 'bulk-principal-' || (g % 4000),
              'bulk-resource-' || (g % 9000), 'tool-' || (g % 12), 'TRANSIENT', false, 'open', 3, 0, 'none', '{}'::json, 1
         FROM generate_series(1, 60000) AS g`,
    );
    await test.pool.query('ANALYZE failure_state');
    // A chunk's worth of coordinates (a dozen of each kind), as a projector transaction at 1,000 events/s names.
    const runs = states.filter((s) => s.key.scope === 'run').slice(0, 12);
    const fleets = states.filter((s) => s.key.scope === 'fleet').slice(0, 12);
    const at = {
      runTools: runs.map((s) => [s.key.tenant, s.key.run!, s.key.equivalenceKey.tool_name] as const),
      fleetResources: fleets.map((s) => [s.key.tenant, s.key.principal!, s.key.resourceId ?? null] as const),
      keyIds: [] as string[],
    };
    const run = runs[0]!;
    const client = await test.pool.connect();
    try {
      const session = pgSession(client);
      // Past the planner's five custom plans: from here on the connection may run its generic plan.
      for (let i = 0; i < 8; i += 1) {
        const loaded = await loadCandidateStates(session, at);
        expect(loaded.states.get(run.keyId)?.version).toBe(run.version);
      }
      const prepared = await client.query<{ custom_plans: string; generic_plans: string }>(
        `SELECT custom_plans::text, generic_plans::text FROM pg_prepared_statements WHERE name = 'load-candidate-states-v3'`,
      );
      expect(prepared.rows).toHaveLength(1);
      expect(Number(prepared.rows[0]!.custom_plans) + Number(prepared.rows[0]!.generic_plans)).toBeGreaterThanOrEqual(
        8,
      );
      const literal = (values: readonly (string | null)[]) =>
        `ARRAY[${values.map((v) => (v === null ? 'NULL' : sqlLiteral(v))).join(',')}]::text[]`;
      const args = [
        literal(at.runTools.map((r) => r[0])),
        literal(at.runTools.map((r) => r[1])),
        literal(at.runTools.map((r) => r[2])),
        literal(at.fleetResources.map((p) => p[0])),
        literal(at.fleetResources.map((p) => p[1])),
        literal(at.fleetResources.map((p) => p[2])),
        "'{}'::text[]",
        "'{}'::text[]",
        "'{}'::int[]",
      ].join(', ');
      // The plan the planner picks for these values, then the generic one it may settle on after five calls: both
      // must reach failure_state through its indexes, one probe per coordinate.
      for (const mode of ['auto', 'force_generic_plan']) {
        await client.query(`SET plan_cache_mode = ${mode}`);
        const plan = await client.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN EXECUTE "load-candidate-states-v3"(${args})`,
        );
        const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(text, mode).not.toMatch(/Seq Scan on failure_state/);
        expect(text, mode).toMatch(/Index (Only )?Scan using failure_state_tenant_run_tool_idx/);
        // A fleet coordinate is an index condition on its resource id too, not a filter over the principal's every key.
        expect(text, mode).toMatch(
          /Index (Only )?Scan using failure_state_fleet_principal_resource_idx[^\n]*\n\s*Index Cond: \(\(tenant = p\.tenant\) AND \(principal = p\.principal\) AND \(resource_id = p\.resource_id\)\)/,
        );
      }
      await client.query('RESET plan_cache_mode');
    } finally {
      client.release();
      await test.pool.query(`DELETE FROM failure_state WHERE key_id LIKE 'bulk-key-%'`);
    }
  });
});
