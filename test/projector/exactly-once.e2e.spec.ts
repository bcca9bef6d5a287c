import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TOPICS } from '@tokencircuit/contracts';
import { createGovernance, DEFAULT_CONFIG } from '@tokencircuit/governance';
import {
  createTestDatabase,
  createTopic,
  generateTrace,
  randomGroupId,
  randomTopic,
  seededRandom,
  type TestDatabase,
} from '@tokencircuit/testing';
import { jsonLines, runCli } from '../cli/support/run-cli.js';
import {
  killHard,
  produceEvents,
  spawnProjector,
  storedEventsInOrder,
  storedStates,
  waitUntilCaughtUp,
  type ProjectorTarget,
} from './support/projector-harness.js';

const governance = createGovernance(DEFAULT_CONFIG);

/**
 * The projector's central guarantee: whatever crashes and redeliveries happen, failure_state equals
 * the pure fold of the distinct events, in the order the projector applied them — none lost, none twice.
 */
describe('exactly-once effect under SIGKILL', () => {
  let db: TestDatabase;

  // Each case on a database of its own: neither depends on what the other left (agent_events is append-only).
  beforeEach(async () => {
    db = await createTestDatabase('projector_eo');
  });
  afterEach(async () => {
    await db?.drop();
  });

  async function crashAndRecover(target: ProjectorTarget, kills: number, seed: number) {
    const random = seededRandom(seed);
    for (let k = 0; k < kills; k++) {
      const child = await spawnProjector(target, `eo-${target.groupId}`);
      // Random moments: during start-up, mid-batch, or after the group formed.
      await new Promise((r) => setTimeout(r, 1_500 + Math.floor(random() * 4_000)));
      await killHard(child);
    }
    const survivor = await spawnProjector(target, `eo-${target.groupId}`);
    try {
      await waitUntilCaughtUp(db.pool, target, 240_000);
    } finally {
      await killHard(survivor);
    }
  }

  async function expectPureFold(expectedDistinct: number) {
    const applied = await storedEventsInOrder(db.pool);
    expect(applied).toHaveLength(expectedDistinct);
    expect(new Set(applied.map((e) => e.id)).size).toBe(expectedDistinct);
    const replay = governance.replay(applied);
    const stored = await storedStates(db.pool);
    expect(stored.size).toBe(replay.states.size);
    for (const [keyId, state] of replay.states) {
      expect(stored.get(keyId), keyId).toEqual(JSON.parse(JSON.stringify(state)));
    }
    const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM decision_outbox_transitions');
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(replay.outbox.map((o) => o.id)));
  }

  it('20,000 events, projector killed 4 times at random moments: state equals the pure fold', async () => {
    const trace = generateTrace({ events: 20_000, seed: 7 });
    const target: ProjectorTarget = {
      databaseUrl: db.url,
      topic: await createTopic(randomTopic('eo'), TOPICS.agentEvents.partitions),
      dlqTopic: await createTopic(randomTopic('eo-dlq'), 1),
      groupId: randomGroupId('eo'),
    };
    await produceEvents(target.topic, trace, 'mixed');
    await crashAndRecover(target, 4, 11);
    await expectPureFold(trace.length);

    // The operator's proof of the same thing: `npx tokencircuit replay` rebuilds every projection from
    // agent_events into a fresh schema and compares digests with the live tables.
    const replay = await runCli(['replay', '--json', '--database-url', db.url], { timeoutMs: 300_000 });
    expect(replay.code, replay.stderr).toBe(0);
    const report = jsonLines<{
      identical: boolean;
      events: number;
      live: { digest: string };
      rebuilt: { digest: string };
    }>(replay.stdout)[0]!;
    expect(report.events).toBe(trace.length);
    expect(report.identical).toBe(true);
    expect(report.rebuilt.digest).toBe(report.live.digest);
  }, 900_000);

  it('every event delivered twice, with crashes: still the fold of the distinct events', async () => {
    const trace = generateTrace({ events: 6_000, seed: 23 });
    const target: ProjectorTarget = {
      databaseUrl: db.url,
      topic: await createTopic(randomTopic('eo2'), TOPICS.agentEvents.partitions),
      dlqTopic: await createTopic(randomTopic('eo2-dlq'), 1),
      groupId: randomGroupId('eo2'),
    };
    // Second copy interleaved a little later, as a producer retry or replay would deliver it.
    const doubled = trace.flatMap((event, i) => (i >= 50 ? [event, trace[i - 50]!] : [event]));
    doubled.push(...trace.slice(-50));
    await produceEvents(target.topic, doubled, 'binary');
    await crashAndRecover(target, 2, 5);
    await expectPureFold(trace.length);
  }, 600_000);
});
