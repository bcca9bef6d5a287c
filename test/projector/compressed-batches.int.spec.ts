import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentEventRecord } from '@tokencircuit/contracts';
import { createTestDatabase, generateTrace, randomGroupId, type TestDatabase } from '@tokencircuit/testing';
import {
  killHard,
  spawnProjector,
  provisionProjectorTarget,
  startProjectorInProcess,
  waitUntilCaughtUp,
  type ProjectorTarget,
} from './support/projector-harness.js';
import { kcatProduce, requireKcat, type KcatCodec } from './support/kcat.js';

const CODECS: readonly KcatCodec[] = ['gzip', 'snappy', 'lz4', 'zstd'];

// Finding (issue 28): one lz4-compressed batch crash-looped the projector (KafkaJSNotImplemented, exit 70, on
// every restart). Java, Go and librdkafka producers compress with any codec Kafka defines; every one must be read.
describe('compressed batches from a librdkafka producer (kcat, real Kafka, real Postgres)', () => {
  let db: TestDatabase;
  let app: INestApplication | undefined;
  let topics: { topic: string; dlqTopic: string } | undefined;
  let applied: string[] = [];
  beforeAll(async () => {
    requireKcat();
    db = await createTestDatabase('compressed_batches');
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('a batch in each codec (gzip, snappy, lz4, zstd) is projected, and the partition moves on', async () => {
    const target = await provisionProjectorTarget(db.url, 'compressed');
    const perCodec = 25;
    const events = generateTrace({ events: perCodec * CODECS.length + 1, seed: 2802, tenants: 1 }).slice(
      0,
      perCodec * CODECS.length + 1,
    );
    CODECS.forEach((codec, i) => {
      const records = events.slice(i * perCodec, (i + 1) * perCodec).map((event) => {
        const record = agentEventRecord(event, 'structured');
        return { key: String(record.key), value: String(record.value) };
      });
      // One kcat run, one linger window: the records go as one compressed record batch.
      kcatProduce(target.topic, records, {
        codec,
        headers: [['content-type', 'application/cloudevents+json']],
      });
    });
    const last = agentEventRecord(events.at(-1)!, 'structured');
    kcatProduce(target.topic, [{ key: String(last.key), value: String(last.value) }], {
      headers: [['content-type', 'application/cloudevents+json']],
    });

    app = await startProjectorInProcess(target, undefined, { PROJECTOR_EXIT_ON_FATAL: 'false' });
    const url = await app.getUrl();
    await waitUntilCaughtUp(db.pool, target, 60_000).catch(async (error: unknown) => {
      const live = await fetch(`${url}/health/live`).then((r) => r.text());
      throw new Error(`${(error as Error).message}; liveness: ${live}`);
    });

    const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM agent_events');
    expect(rows.map((r) => r.id).sort()).toEqual(events.map((e) => e.id).sort());
    expect((await fetch(`${url}/health/live`)).status).toBe(200);
    expect((await fetch(`${url}/health/ready`)).status).toBe(200);
    topics = { topic: target.topic, dlqTopic: target.dlqTopic };
    applied = rows.map((r) => r.id).sort();
  }, 120_000);

  it('the projector process (apps/projector, as production starts it) reads the same batches', async () => {
    expect(topics, 'the batches of the test above').toBeDefined();
    const other = await createTestDatabase('compressed_batches_process');
    const target: ProjectorTarget = {
      databaseUrl: other.url,
      ...topics!,
      groupId: randomGroupId('compressed-process'),
    };
    const child = await spawnProjector(target, `compressed-${target.groupId}`);
    try {
      await waitUntilCaughtUp(other.pool, target, 90_000);
      const { rows } = await other.pool.query<{ id: string }>('SELECT id FROM agent_events');
      expect(rows.map((r) => r.id).sort()).toEqual(applied);
      expect(child.exitCode, 'the process is still running').toBe(null);
    } finally {
      await killHard(child);
      await other.drop();
    }
  }, 150_000);
});
