import type { INestApplication } from '@nestjs/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGovernance, DEFAULT_CONFIG } from '@tokencircuit/governance';
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

const PARTITIONS = 3;

/**
 * kafkajs hands the partitions of one fetch over together; the projector gathers their chunks into one
 * transaction (group commit). Read back from Postgres: rows written by one transaction share its xmin.
 */
describe('group commit: the partitions of a fetch in one transaction (real Kafka, real Postgres)', () => {
  let db: TestDatabase;
  let app: INestApplication | undefined;
  // A database per case: agent_events is append-only, and each case reads back every row.
  beforeEach(async () => {
    db = await createTestDatabase('projector_group_commit');
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await db?.drop();
  });

  /** Projects a trace produced to a topic of PARTITIONS partitions before the projector starts. */
  async function projectTrace(settings: { partitionsConcurrently: number; chunkSize: number }) {
    const target: ProjectorTarget = {
      databaseUrl: db.url,
      topic: await createTopic(randomTopic('group-commit'), PARTITIONS),
      dlqTopic: await createTopic(randomTopic('group-commit-dlq'), 1),
      groupId: randomGroupId('group-commit'),
    };
    const events = generateTrace({ events: 1_500, seed: 7 });
    await produceEvents(target.topic, events);
    app = await startProjectorInProcess(target, DEFAULT_CONFIG, {
      PROJECTOR_PARTITIONS_CONCURRENTLY: String(settings.partitionsConcurrently),
      PROJECTOR_CHUNK_SIZE: String(settings.chunkSize),
    });
    await waitUntilCaughtUp(db.pool, target, 60_000);
    const { rows } = await db.pool.query<{ partitions: number; records: number }>(
      `SELECT count(DISTINCT kafka_partition)::int AS partitions, count(*)::int AS records
         FROM agent_events GROUP BY xmin::text`,
    );
    return {
      events,
      partitionsPerTransaction: rows.map((r) => r.partitions),
      recordsPerTransaction: rows.map((r) => r.records),
    };
  }

  it('gathers the partitions of a fetch into one transaction and keeps the pure fold and each partition in order', async () => {
    const { events, partitionsPerTransaction } = await projectTrace({
      partitionsConcurrently: PARTITIONS,
      chunkSize: 2_000,
    });
    expect(Math.max(...partitionsPerTransaction), 'some transaction holds several partitions').toBeGreaterThan(1);

    const applied = await storedEventsInOrder(db.pool);
    expect(applied).toHaveLength(events.length);
    const replay = createGovernance(DEFAULT_CONFIG).replay(applied);
    const stored = await storedStates(db.pool);
    expect(stored.size).toBe(replay.states.size);
    for (const [keyId, state] of replay.states) {
      expect(stored.get(keyId), keyId).toEqual(JSON.parse(JSON.stringify(state)));
    }
    // Within a partition, the stored order (seq) is the log's order: gathering never reorders a partition.
    const { rows } = await db.pool.query<{ partition: number; offsets: string[] }>(
      `SELECT kafka_partition AS partition, array_agg(kafka_offset::text ORDER BY seq) AS offsets
         FROM agent_events GROUP BY kafka_partition`,
    );
    expect(rows).toHaveLength(PARTITIONS);
    for (const { offsets } of rows) {
      const numbers = offsets.map(Number);
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    }
  });

  it('never gathers past PROJECTOR_CHUNK_SIZE records in one transaction', async () => {
    const { recordsPerTransaction } = await projectTrace({ partitionsConcurrently: PARTITIONS, chunkSize: 200 });
    expect(recordsPerTransaction.length).toBeGreaterThan(1);
    expect(Math.max(...recordsPerTransaction)).toBeLessThanOrEqual(200);
  });

  it('with PROJECTOR_PARTITIONS_CONCURRENTLY=1, each transaction holds one partition', async () => {
    const { partitionsPerTransaction } = await projectTrace({ partitionsConcurrently: 1, chunkSize: 2_000 });
    expect(partitionsPerTransaction.length).toBeGreaterThan(1);
    expect(Math.max(...partitionsPerTransaction)).toBe(1);
  });
});
