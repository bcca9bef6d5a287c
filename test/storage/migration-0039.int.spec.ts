import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createGovernance, DEFAULT_CONFIG } from '@tokencircuit/governance';
import { applyChunk } from '@tokencircuit/projection';
import { migrate, pgDatabase } from '@tokencircuit/storage';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import { decideEverything, expectDecidedAsReference } from './support/decided-as-reference.js';
import { migrationsBefore, positioned, TOPIC } from './support/migrations-before.js';
import { savePre0039Fold } from '../../libs/storage/src/spec-support/pre-0039-save-fold.js';
import { insertPre0048AgentEvents } from '../../libs/storage/src/spec-support/pre-0048-insert-agent-events.js';

const governance = createGovernance(DEFAULT_CONFIG);

describe('migration 0039 (decisions by reference) on a database an older build filled', () => {
  let db: TestDatabase | undefined;
  let folder: string | undefined;
  afterAll(async () => {
    await db?.drop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('loses no event, state or outbox row; the old rows are decided from their copies and the new build carries on to the reference fold', async () => {
    db = await createTestDatabase('tc_migration_0039', { migrate: false });
    folder = migrationsBefore(39);
    await migrate(db.url, { migrationsFolder: folder });
    const database = pgDatabase(db.pool);
    const trace = generateTrace({ events: 1_200, seed: 21 });
    const older = trace.slice(0, 600);
    const newer = trace.slice(600);

    // The older build: its events, its states, and every transition with a copy of its state, not yet decided.
    const before = governance.replay(older);
    await database.transaction(async (tx) => {
      await insertPre0048AgentEvents(tx, positioned(older, 0));
      await savePre0039Fold(tx, { states: [...before.states.values()], outbox: before.outbox });
    });
    const count = async (sql: string) => (await db!.pool.query<{ n: number }>(sql)).rows[0]!.n;
    const counts = async () => ({
      events: await count('SELECT count(*)::int AS n FROM agent_events'),
      states: await count('SELECT count(*)::int AS n FROM failure_state'),
      outbox: await count('SELECT count(*)::int AS n FROM decision_outbox'),
      copies: await count('SELECT count(*)::int AS n FROM decision_outbox WHERE state_snapshot IS NOT NULL'),
      pending: await count('SELECT count(*)::int AS n FROM decision_outbox WHERE published_at IS NULL'),
    });
    const filled = await counts();
    expect(filled).toMatchObject({ events: 600, states: before.states.size, outbox: before.outbox.length });
    expect(filled.copies).toBe(filled.outbox);
    expect(filled.pending).toBe(filled.outbox);

    await migrate(db.url);
    expect(await counts()).toEqual(filled);

    // This build projects the rest over the migrated rows (some of whose states it moves past), then decides all.
    await database.transaction((tx) =>
      applyChunk(tx, DEFAULT_CONFIG, { group: 'g', topic: TOPIC, events: positioned(newer, 600) }),
    );
    await decideEverything(db.pool);

    await expectDecidedAsReference(db.pool, trace);
  });
});
