import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { TOPICS } from '@tokencircuit/contracts';
import { InProcessBus } from '@tokencircuit/bus';
import { OutboxRelay } from '@tokencircuit/decision-relay';
import { createGovernance, DEFAULT_CONFIG } from '@tokencircuit/governance';
import { applyChunk } from '@tokencircuit/projection';
import { migrate, pgDatabase, stateKeyColumns, stateOfRow, type StateKeyColumns } from '@tokencircuit/storage';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import { BusInterventionPublisher } from '../../apps/fleet/src/embedded/bus-adapters.js';
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
    const relay = new OutboxRelay(
      database,
      new BusInterventionPublisher(new InProcessBus(TOPICS.interventions.partitions)),
      DEFAULT_CONFIG,
      100,
    );
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
    while ((await relay.round()).claimed > 0);

    const reference = governance.replay(trace);
    const { rows: states } = await db.pool.query<{ state: unknown } & StateKeyColumns>(
      `SELECT state, ${stateKeyColumns()} FROM failure_state`,
    );
    expect(new Map(states.map((r) => [r.key_id, stateOfRow(r.state, r)]))).toEqual(
      new Map([...reference.states].map(([keyId, s]) => [keyId, JSON.parse(JSON.stringify(s))])),
    );
    const { rows: outbox } = await db.pool.query<{ id: string; published: boolean }>(
      'SELECT id, published_at IS NOT NULL AS published FROM decision_outbox_transitions',
    );
    expect(outbox.map((r) => r.id).sort()).toEqual(reference.outbox.map((e) => e.id).sort());
    expect(outbox.every((r) => r.published)).toBe(true);
    expect(await count('SELECT count(*)::int AS n FROM agent_events')).toBe(trace.length);
    // Every decision the reference fold calls for, once, whether its row held a copy or referred to its state.
    const expected = reference.outbox
      .map((entry) => governance.intervention(entry, entry.snapshot.updatedAt))
      .flatMap((i) => (i === null ? [] : [i.interventionId]));
    const { rows: recorded } = await db.pool.query<{ id: string }>('SELECT id FROM interventions');
    expect(recorded.map((r) => r.id).sort()).toEqual([...expected].sort());
    expect(await count('SELECT count(*)::int AS n FROM outbox_states')).toBe(0);
  });
});
