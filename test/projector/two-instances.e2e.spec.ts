import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGovernance, DEFAULT_CONFIG, type FailureState } from '@tokencircuit/governance';
import {
  createTestDatabase,
  createTopic,
  generateTrace,
  randomGroupId,
  randomTopic,
  type TestDatabase,
} from '@tokencircuit/testing';
import {
  produceEvents,
  startProjectorInProcess,
  storedEventsInOrder,
  storedStates,
  waitUntilCaughtUp,
  type ProjectorTarget,
} from './support/projector-harness.js';

const governance = createGovernance(DEFAULT_CONFIG);

/**
 * Two projectors in one consumer group on a 6-partition topic (rebalance included: the second joins while
 * the first is consuming) against one projector alone, over the same trace. Run-scoped keys live on one
 * partition and must be identical. Fleet-scoped keys are touched from several partitions, whose relative
 * order Kafka does not define: each database must equal the pure fold in the order it applied them,
 * with the same keys, the same events and no lost update.
 */
describe('two projector instances', () => {
  let single: TestDatabase;
  let pair: TestDatabase;
  const apps: INestApplication[] = [];

  beforeAll(async () => {
    [single, pair] = await Promise.all([createTestDatabase('projector_one'), createTestDatabase('projector_two')]);
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await Promise.all([single?.drop(), pair?.drop()]);
  });

  it('produce the same final state as one', async () => {
    const trace = generateTrace({ events: 8_000, seed: 2026, principals: 2 });
    const topic = await createTopic(randomTopic('pair'), 6);
    const dlqTopic = await createTopic(randomTopic('pair-dlq'), 1);
    await produceEvents(topic, trace);

    const one: ProjectorTarget = { databaseUrl: single.url, topic, dlqTopic, groupId: randomGroupId('one') };
    const two: ProjectorTarget = { databaseUrl: pair.url, topic, dlqTopic, groupId: randomGroupId('two') };
    apps.push(await startProjectorInProcess(one));
    apps.push(await startProjectorInProcess(two, DEFAULT_CONFIG, { PROJECTOR_CHUNK_SIZE: '200' }));
    apps.push(await startProjectorInProcess(two, DEFAULT_CONFIG, { PROJECTOR_CHUNK_SIZE: '200' }));
    await Promise.all([waitUntilCaughtUp(single.pool, one), waitUntilCaughtUp(pair.pool, two)]);

    const [alone, together] = await Promise.all([storedStates(single.pool), storedStates(pair.pool)]);
    for (const db of [single, pair]) {
      const applied = await storedEventsInOrder(db.pool);
      expect(applied).toHaveLength(trace.length);
      const replay = governance.replay(applied);
      const stored = await storedStates(db.pool);
      expect([...stored.keys()].sort()).toEqual([...replay.states.keys()].sort());
      for (const [keyId, state] of replay.states)
        expect(stored.get(keyId), keyId).toEqual(JSON.parse(JSON.stringify(state)));
    }
    expect([...together.keys()].sort()).toEqual([...alone.keys()].sort());
    const runScoped = [...alone.entries()].filter(([, s]) => (s as FailureState).key.scope === 'run');
    expect(runScoped.length).toBeGreaterThan(100);
    for (const [keyId, state] of runScoped) expect(together.get(keyId), keyId).toEqual(state);
    const fleetScoped = [...alone.values()].filter((s) => (s as FailureState).key.scope === 'fleet');
    expect(fleetScoped.length, 'the trace must exercise fleet keys shared across partitions').toBeGreaterThan(0);
  }, 300_000);
});
