import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createGovernance, DEFAULT_CONFIG } from '@tokencircuit/governance';
import { applyChunk } from '@tokencircuit/projection';
import { migrate, pgDatabase } from '@tokencircuit/storage';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import { decideEverything, expectDecidedAsReference } from './support/decided-as-reference.js';
import { migrationsBefore, positioned, TOPIC } from './support/migrations-before.js';
import { savePre0047Fold } from '../../libs/storage/src/spec-support/pre-0047-save-fold.js';
import { insertPre0048AgentEvents } from '../../libs/storage/src/spec-support/pre-0048-insert-agent-events.js';

const governance = createGovernance(DEFAULT_CONFIG);

describe('migration 0047 (decisions by delta) on a database the build before it filled', () => {
  let db: TestDatabase | undefined;
  let folder: string | undefined;
  afterAll(async () => {
    await db?.drop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('loses no event, state, outbox row or kept state; the old rows are decided from their copies and references and the new build carries on to the reference fold', async () => {
    db = await createTestDatabase('tc_migration_0047', { migrate: false });
    folder = migrationsBefore(47);
    await migrate(db.url, { migrationsFolder: folder });
    const database = pgDatabase(db.pool);
    const trace = generateTrace({ events: 1_500, seed: 23 });
    const [first, second, newer] = [trace.slice(0, 500), trace.slice(500, 1_000), trace.slice(1_000)];

    // The older build, two transactions, nothing decided: the second moves keys past versions the first's
    // pending rows refer to, so outbox_states holds some.
    const afterFirst = governance.replay(first);
    const afterSecond = governance.replay([...first, ...second]);
    const firstIds = new Set(afterFirst.outbox.map((e) => e.id));
    await database.transaction(async (tx) => {
      await insertPre0048AgentEvents(tx, positioned(first, 0));
      await savePre0047Fold(tx, { states: [...afterFirst.states.values()], outbox: afterFirst.outbox });
    });
    await database.transaction(async (tx) => {
      await insertPre0048AgentEvents(tx, positioned(second, 500));
      await savePre0047Fold(tx, {
        states: [...afterSecond.states.values()].filter((s) => afterFirst.states.get(s.keyId)?.version !== s.version),
        outbox: afterSecond.outbox.filter((e) => !firstIds.has(e.id)),
      });
    });

    const count = async (sql: string) => (await db!.pool.query<{ n: number }>(sql)).rows[0]!.n;
    const counts = async () => ({
      events: await count('SELECT count(*)::int AS n FROM agent_events'),
      states: await count('SELECT count(*)::int AS n FROM failure_state'),
      outbox: await count('SELECT count(*)::int AS n FROM decision_outbox'),
      copies: await count('SELECT count(*)::int AS n FROM decision_outbox WHERE state_snapshot IS NOT NULL'),
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
    expect(filled.copies).toBeGreaterThan(0);
    expect(filled.copies).toBeLessThan(filled.outbox);
    expect(filled.kept).toBeGreaterThan(0);

    await migrate(db.url);
    expect(await counts()).toEqual(filled);
    expect(await count('SELECT count(*)::int AS n FROM decision_outbox WHERE state_delta IS NOT NULL')).toBe(0);

    // This build projects the rest over the migrated rows (moving some keys past kept and referred versions,
    // writing deltas for its own transitions, in their key's row since 0053), then the relay decides everything.
    await database.transaction((tx) =>
      applyChunk(tx, DEFAULT_CONFIG, { group: 'g', topic: TOPIC, events: positioned(newer, 1_000) }),
    );
    expect(await count('SELECT count(*)::int AS n FROM decision_outbox WHERE earlier IS NOT NULL')).toBeGreaterThan(0);
    await decideEverything(db.pool);

    await expectDecidedAsReference(db.pool, trace);
  });
});
