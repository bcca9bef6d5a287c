import type pg from 'pg';
import { expect } from 'vitest';
import { TOPICS, type AgentEvent } from '@tokencircuit/contracts';
import { InProcessBus } from '@tokencircuit/bus';
import { OutboxRelay } from '@tokencircuit/decision-relay';
import { createGovernance, DEFAULT_CONFIG } from '@tokencircuit/governance';
import { pgDatabase, stateKeyColumns, stateOfRow, type StateKeyColumns } from '@tokencircuit/storage';
import { BusInterventionPublisher } from '../../../apps/fleet/src/embedded/bus-adapters.js';

const governance = createGovernance(DEFAULT_CONFIG);

/** Runs relay rounds over the database until none claims a row: every pending transition decided. */
export async function decideEverything(pool: pg.Pool): Promise<void> {
  const relay = new OutboxRelay(
    pgDatabase(pool),
    new BusInterventionPublisher(new InProcessBus(TOPICS.interventions.partitions)),
    DEFAULT_CONFIG,
    100,
  );
  while ((await relay.round()).claimed > 0);
}

/**
 * What a migration spec checks once a migrated database has been carried on and decided: the states, the
 * transitions (each published once), the events and the interventions are the reference fold's of `trace`, and
 * no kept state is left.
 */
export async function expectDecidedAsReference(pool: pg.Pool, trace: readonly AgentEvent[]): Promise<void> {
  const reference = governance.replay(trace);
  const count = async (sql: string) => (await pool.query<{ n: number }>(sql)).rows[0]!.n;
  const { rows: states } = await pool.query<{ state: unknown } & StateKeyColumns>(
    `SELECT state, ${stateKeyColumns()} FROM failure_state`,
  );
  expect(new Map(states.map((r) => [r.key_id, stateOfRow(r.state, r)]))).toEqual(
    new Map([...reference.states].map(([keyId, s]) => [keyId, JSON.parse(JSON.stringify(s))])),
  );
  const { rows: transitions } = await pool.query<{ id: string; published: boolean }>(
    'SELECT id, published_at IS NOT NULL AS published FROM decision_outbox_transitions',
  );
  expect(transitions.map((r) => r.id).sort()).toEqual(reference.outbox.map((e) => e.id).sort());
  expect(transitions.every((r) => r.published)).toBe(true);
  expect(await count('SELECT count(*)::int AS n FROM agent_events')).toBe(trace.length);
  // Every decision the reference fold calls for, once, whatever form its transition was stored in.
  const expected = reference.outbox
    .map((entry) => governance.intervention(entry, entry.snapshot.updatedAt))
    .flatMap((i) => (i === null ? [] : [i.interventionId]));
  const { rows: recorded } = await pool.query<{ id: string }>('SELECT id FROM interventions');
  expect(recorded.map((r) => r.id).sort()).toEqual([...expected].sort());
  expect(await count('SELECT count(*)::int AS n FROM outbox_states')).toBe(0);
}
