import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createGovernance, DEFAULT_CONFIG } from '@tokencircuit/governance';
import { applyChunk } from '@tokencircuit/projection';
import { migrate, pgDatabase } from '@tokencircuit/storage';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import { agentEventRows, insertAgentEvents } from '../../libs/storage/src/projection/insert-agent-events.js';
import { asRole } from '../../libs/storage/src/spec-support/as-role.js';
import { savePre0053Fold } from '../../libs/storage/src/spec-support/pre-0053-save-fold.js';
import { readOutboxTransitions } from '../../libs/storage/src/spec-support/outbox-rows.js';
import { decideEverything, expectDecidedAsReference } from './support/decided-as-reference.js';
import { migrationsBefore, positioned, TOPIC } from './support/migrations-before.js';

const governance = createGovernance(DEFAULT_CONFIG);

describe('migration 0053 (one outbox row per key and transaction) on a database the build before it filled', () => {
  let db: TestDatabase | undefined;
  let folder: string | undefined;
  afterAll(async () => {
    await db?.drop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('loses no event, state, outbox row or kept state; the old delta rows and the new rows are decided side by side to the reference fold', async () => {
    db = await createTestDatabase('tc_migration_0053', { migrate: false });
    folder = migrationsBefore(53);
    await migrate(db.url, { migrationsFolder: folder });
    const database = pgDatabase(db.pool);
    const trace = generateTrace({ events: 1_500, seed: 29 });
    const [first, second, newer] = [trace.slice(0, 500), trace.slice(500, 1_000), trace.slice(1_000)];

    // The build before, two transactions, nothing decided: a delta row per earlier transition, and the second
    // transaction moves keys past versions the first's pending rows refer to, so outbox_states holds some.
    const afterFirst = governance.replay(first);
    const afterSecond = governance.replay([...first, ...second]);
    const firstIds = new Set(afterFirst.outbox.map((e) => e.id));
    await database.transaction(async (tx) => {
      await insertAgentEvents(tx, agentEventRows(positioned(first, 0)));
      await savePre0053Fold(tx, { states: [...afterFirst.states.values()], outbox: afterFirst.outbox });
    });
    await database.transaction(async (tx) => {
      await insertAgentEvents(tx, agentEventRows(positioned(second, 500)));
      await savePre0053Fold(tx, {
        states: [...afterSecond.states.values()].filter((s) => afterFirst.states.get(s.keyId)?.version !== s.version),
        outbox: afterSecond.outbox.filter((e) => !firstIds.has(e.id)),
      });
    });

    const count = async (sql: string) => (await db!.pool.query<{ n: number }>(sql)).rows[0]!.n;
    const counts = async () => ({
      events: await count('SELECT count(*)::int AS n FROM agent_events'),
      states: await count('SELECT count(*)::int AS n FROM failure_state'),
      outbox: await count('SELECT count(*)::int AS n FROM decision_outbox'),
      deltas: await count('SELECT count(*)::int AS n FROM decision_outbox WHERE state_delta IS NOT NULL'),
      pending: await count('SELECT count(*)::int AS n FROM decision_outbox WHERE published_at IS NULL'),
      kept: await count('SELECT count(*)::int AS n FROM outbox_states'),
    });
    const filled = await counts();
    expect(filled).toMatchObject({
      events: 1_000,
      states: afterSecond.states.size,
      outbox: afterSecond.outbox.length,
      pending: afterSecond.outbox.length,
    });
    expect(filled.deltas).toBeGreaterThan(0);
    expect(filled.kept).toBeGreaterThan(0);

    await migrate(db.url);
    expect(await counts()).toEqual(filled);
    // Every old row reads as the build before wrote it: each transition a row of its own, on its own state.
    const migrated = await readOutboxTransitions(database);
    expect(migrated.every((t) => t.kind !== 'earlier' && t.rowId === t.id)).toBe(true);
    expect(new Map(migrated.map((t) => [t.id, JSON.stringify(t.snapshot)]))).toEqual(
      new Map(afterSecond.outbox.map((e) => [e.id, JSON.stringify(e.snapshot)])),
    );
    expect(await count('SELECT count(*)::int AS n FROM decision_outbox WHERE earlier IS NOT NULL')).toBe(0);

    // This build projects the rest over the migrated rows (moving keys past old referred and delta-base versions),
    // its earlier transitions in their key's row, then the relay decides everything.
    await database.transaction((tx) =>
      applyChunk(tx, DEFAULT_CONFIG, { group: 'g', topic: TOPIC, events: positioned(newer, 1_000) }),
    );
    const reference = governance.replay(trace);
    expect(await count('SELECT count(*)::int AS n FROM decision_outbox WHERE earlier IS NOT NULL')).toBeGreaterThan(0);
    expect(await count('SELECT count(*)::int AS n FROM decision_outbox')).toBeLessThan(reference.outbox.length);
    const decidedOn = new Map((await readOutboxTransitions(database)).map((t) => [t.id, JSON.stringify(t.snapshot)]));
    expect(decidedOn).toEqual(new Map(reference.outbox.map((e) => [e.id, JSON.stringify(e.snapshot)])));

    await decideEverything(db.pool);

    await expectDecidedAsReference(db.pool, trace);

    // The transitions view answers under row-level security: the audit role sees one tenant's transitions only.
    const tenant = reference.outbox[0]!.tenant;
    const seen = await asRole(
      db.pool,
      'tokencircuit_audit',
      async (tx) =>
        (await tx.query<{ tenant: string }>('SELECT DISTINCT tenant FROM decision_outbox_transitions')).rows,
      tenant,
    );
    expect(seen).toEqual([{ tenant }]);
  });
});
