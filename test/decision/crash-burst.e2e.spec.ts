import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS, type InterventionData } from '@tokencircuit/contracts';
import {
  applyStateDelta,
  createGovernance,
  DEFAULT_CONFIG,
  outboxIdOf,
  type FailureState,
  type StateDelta,
} from '@tokencircuit/governance';
import {
  OUTBOX_SNAPSHOT,
  OUTBOX_SNAPSHOT_JOINS,
  OUTBOX_STATE_KEY,
  verifyTenantChain,
  withDelta,
  type StateKeyColumns,
} from '@tokencircuit/storage';
import {
  createTestDatabase,
  createTopic,
  generateTrace,
  randomGroupId,
  randomTopic,
  seededRandom,
  waitFor,
  type TestDatabase,
} from '@tokencircuit/testing';
import {
  killHard,
  produceEvents,
  startProjectorInProcess,
  waitUntilCaughtUp,
} from '../projector/support/projector-harness.js';
import { interventionRecorder, spawnDecision } from './support/decision-harness.js';

const governance = createGovernance(DEFAULT_CONFIG);

/**
 * A crash anywhere in the decision service means a later publish of the same id, never a lost one:
 * killed with SIGKILL three times during a burst of thousands of decisions, then restarted, every
 * expected intervention is on the topic at least once and in the audit table exactly once.
 */
describe('decision service under SIGKILL during a burst', () => {
  let db: TestDatabase;
  let projector: INestApplication | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('decision_crash');
  });
  afterAll(async () => {
    await projector?.close();
    await db?.drop();
  });

  it('every expected intervention id on the topic at least once and in the table exactly once', async () => {
    const topic = await createTopic(randomTopic('burst-agent-events'), TOPICS.agentEvents.partitions);
    const interventionsTopic = await createTopic(randomTopic('burst-interventions'), TOPICS.interventions.partitions);
    const target = {
      databaseUrl: db.url,
      topic,
      dlqTopic: await createTopic(randomTopic('burst-dlq'), 1),
      groupId: randomGroupId('burst'),
    };
    await produceEvents(topic, generateTrace({ events: 14_000, seed: 314 }));
    projector = await startProjectorInProcess(target);
    await waitUntilCaughtUp(db.pool, target);

    // The expected decisions, from the outbox the projector wrote, decided by the pure core.
    const { rows: outbox } = await db.pool.query<{
      id: string;
      tenant: string;
      key_id: string;
      state_version: number;
      state_snapshot: FailureState;
      state_delta: StateDelta | null;
      state_key: StateKeyColumns | null;
      earlier: [number, StateDelta][] | null;
    }>(
      // A row refers to its state when it holds no copy (decisions by reference, migration 0039), and carries its
      // key's earlier transitions of the same projector transaction as deltas against it (migration 0053).
      `SELECT o.id, o.tenant, o.key_id, o.state_version, ${OUTBOX_SNAPSHOT} AS state_snapshot, o.state_delta,
              ${OUTBOX_STATE_KEY} AS state_key, o.earlier
         FROM decision_outbox o ${OUTBOX_SNAPSHOT_JOINS}`,
    );
    const expected = outbox
      .map((row) => ({ ...row, state_snapshot: withDelta(row.state_snapshot, row.state_delta, row.state_key)! }))
      .flatMap((row) => [
        ...(row.earlier ?? []).map(([version, delta]) => ({
          ...row,
          id: outboxIdOf(row.key_id, version),
          state_version: version,
          state_snapshot: applyStateDelta(row.state_snapshot, delta),
        })),
        row,
      ])
      .map((row) =>
        governance.intervention(
          {
            id: row.id,
            tenant: row.tenant,
            keyId: row.key_id,
            stateVersion: row.state_version,
            snapshot: row.state_snapshot,
          },
          row.state_snapshot.updatedAt,
        ),
      )
      .filter((i): i is InterventionData => i !== null);
    expect(expected.length, 'a burst of at least 2,000 decisions').toBeGreaterThanOrEqual(2_000);

    const recorder = await interventionRecorder(interventionsTopic);
    const decisionTarget = { databaseUrl: db.url, interventionsTopic };
    const random = seededRandom(2718);
    const publishedCount = async () => {
      const { rows } = await db.pool.query<{ n: string }>(
        'SELECT count(*)::text AS n FROM decision_outbox WHERE published_at IS NOT NULL',
      );
      return Number(rows[0]!.n);
    };
    for (let kill = 0; kill < 3; kill++) {
      const before = await publishedCount();
      const child = await spawnDecision(decisionTarget, 'decision-burst');
      // Kill once this instance has committed a few rounds, at a random point of the next ones.
      const target = before + 100 + Math.floor(random() * 300);
      await waitFor(async () => (await publishedCount()) >= target, {
        maxWait: 90_000,
        interval: 20,
        name: 'the decision service to be mid-burst',
      });
      await killHard(child);
    }
    const survivor = await spawnDecision(decisionTarget, 'decision-burst');
    try {
      await waitFor(
        async () => {
          const { rows } = await db.pool.query<{ n: string }>(
            'SELECT count(*)::text AS n FROM decision_outbox WHERE published_at IS NULL',
          );
          return rows[0]!.n === '0';
        },
        { maxWait: 180_000, interval: 250, name: 'the outbox to drain' },
      );
      await recorder.waitForIds(
        expected.map((i) => i.interventionId),
        120_000,
      );
    } finally {
      await killHard(survivor);
      await recorder.stop();
    }

    const published = new Map(recorder.received.map((i) => [i.interventionId, i]));
    for (const intervention of expected) expect(published.get(intervention.interventionId)).toEqual(intervention);
    const { rows } = await db.pool.query<{ id: string; n: string }>(
      'SELECT id, count(*)::text AS n FROM interventions GROUP BY id',
    );
    expect(rows).toHaveLength(expected.length);
    expect(rows.every((r) => r.n === '1')).toBe(true);
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(expected.map((i) => i.interventionId)));
    for (const tenant of new Set(expected.map((i) => i.tenant))) {
      expect((await verifyTenantChain(db.pool, tenant)).ok, tenant).toBe(true);
    }
    expect(recorder.received.length, 'republished ids are allowed, lost ones are not').toBeGreaterThanOrEqual(
      expected.length,
    );
  }, 600_000);
});
