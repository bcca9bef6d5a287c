import { createHash, randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { CompressionTypes } from 'kafkajs';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { dlqMaxMessageBytes, DLQ_TRUNCATED_VALUE_BYTES, TOPICS } from '@tokencircuit/contracts';
import {
  collectMessages,
  createTestDatabase,
  ensureTopics,
  generateTrace,
  randomGroupId,
  randomTopic,
  testKafka,
  type TestDatabase,
} from '@tokencircuit/testing';
import {
  produceEvents,
  startProjectorInProcess,
  waitUntilCaughtUp,
  type ProjectorTarget,
} from './support/projector-harness.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Source and dead-letter topics provisioned from the product's TOPICS data, under fresh names. */
async function provision(dlqConfig?: Record<string, string>): Promise<{ topic: string; dlqTopic: string }> {
  const topic = randomTopic('dlq-copies');
  const dlqTopic = randomTopic('dlq-copies-dlq');
  const admin = testKafka().admin();
  await admin.connect();
  try {
    await ensureTopics(admin, [
      { ...TOPICS.agentEvents, name: topic, partitions: 1 },
      dlqConfig
        ? { name: dlqTopic, partitions: 1, config: dlqConfig }
        : { ...TOPICS.agentEventsDlq, name: dlqTopic, maxMessageBytesOf: topic },
    ]);
  } finally {
    await admin.disconnect();
  }
  return { topic, dlqTopic };
}

async function produceRaw(topic: string, value: Buffer, compression = CompressionTypes.None) {
  const producer = testKafka().producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    await producer.send({ topic, acks: -1, compression, messages: [{ key: 'hostile', value }] });
  } finally {
    await producer.disconnect();
  }
}

describe('dead-letter copies the broker must accept (real Kafka)', () => {
  let db: TestDatabase;
  let app: INestApplication | undefined;
  beforeAll(async () => {
    db = await createTestDatabase('dlq_copies');
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });
  afterAll(async () => db?.drop());

  async function runProjector(topics: { topic: string; dlqTopic: string }): Promise<ProjectorTarget> {
    const target = { databaseUrl: db.url, ...topics, groupId: randomGroupId('dlq-copies') };
    // A valid event after the hostile record: the partition must move past it.
    await produceEvents(target.topic, generateTrace({ events: 5, seed: Math.floor(Math.random() * 1e6) }));
    app = await startProjectorInProcess(target);
    await waitUntilCaughtUp(db.pool, target, 60_000);
    return target;
  }

  it('the dead-letter topic is provisioned to take a copy of anything its source accepts', async () => {
    const { topic, dlqTopic } = await provision();
    const admin = testKafka().admin();
    await admin.connect();
    try {
      const { maxMessageBytes } = await import('@tokencircuit/testing');
      const limits = await maxMessageBytes(admin, [topic, dlqTopic]);
      expect(limits.get(dlqTopic)).toBeGreaterThanOrEqual(dlqMaxMessageBytes(limits.get(topic)!));
    } finally {
      await admin.disconnect();
    }
  });

  it('a value near the 1 MiB limit is parked whole', async () => {
    const topics = await provision();
    const value = Buffer.alloc(1_040_000, 'near-the-limit ');
    await produceRaw(topics.topic, value);
    await runProjector(topics);
    const [parked] = await collectMessages(topics.dlqTopic, 1, { maxWait: 30_000 });
    expect(parked!.value!.length).toBe(value.length);
    expect(sha256(parked!.value!)).toBe(sha256(value));
    expect(parked!.headers['tc-dlq-code']?.toString()).toBe('too_large');
  }, 120_000);

  it('a gzip-compressed record four times the limit once decompressed is parked, and the partition moves on', async () => {
    const topics = await provision();
    const value = Buffer.alloc(4 * 1024 * 1024, 'compressible ');
    await produceRaw(topics.topic, value, CompressionTypes.GZIP);
    await runProjector(topics);
    const [parked] = await collectMessages(topics.dlqTopic, 1, { maxWait: 30_000 });
    const truncated = parked!.headers['tc-dlq-truncated']?.toString() === 'true';
    const hash = truncated ? parked!.headers['tc-dlq-original-sha256']?.toString() : sha256(parked!.value!);
    expect(hash).toBe(sha256(value));
  }, 120_000);

  it('a copy the dead-letter topic still refuses is parked truncated, with its size, SHA-256 and coordinates', async () => {
    // A dead-letter topic an operator left smaller than its source: the copy cannot go whole.
    const topics = await provision({ 'max.message.bytes': String(200 * 1024) });
    const value = randomBytes(900_000); // incompressible: gzip cannot make it fit
    await produceRaw(topics.topic, value);
    await runProjector(topics);
    const [parked] = await collectMessages(topics.dlqTopic, 1, { maxWait: 30_000 });
    const header = (name: string) => parked!.headers[name]?.toString();
    expect(header('tc-dlq-truncated')).toBe('true');
    expect(header('tc-dlq-original-bytes')).toBe(String(value.length));
    expect(header('tc-dlq-original-sha256')).toBe(sha256(value));
    expect(header('tc-dlq-source-topic')).toBe(topics.topic);
    expect(header('tc-dlq-source-offset')).toBe('0');
    expect(header('tc-dlq-reason')).toMatch(/too_large|bytes/);
    expect(parked!.value!.equals(value.subarray(0, DLQ_TRUNCATED_VALUE_BYTES))).toBe(true);
  }, 120_000);
});
