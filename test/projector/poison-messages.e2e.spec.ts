import fc from 'fast-check';
import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentEventToCloudEvent, CE_CONTENT_TYPE_STRUCTURED, LIMITS, type AgentEvent } from '@tokencircuit/contracts';
import { agentEventRecord } from '@tokencircuit/contracts';
import {
  collectMessages,
  createTestDatabase,
  createTopic,
  generateTrace,
  randomGroupId,
  randomTopic,
  testKafka,
  type TestDatabase,
} from '@tokencircuit/testing';
import { startProjectorInProcess, waitUntilCaughtUp, type ProjectorTarget } from './support/projector-harness.js';

type Raw = { key: string | null; value: Buffer | string | null; headers: Record<string, string> };

/** Malformed records of every kind a real topic sees: garbage bytes, wrong envelope, wrong version, wrong schema, oversized. */
const poison = (valid: AgentEvent): fc.Arbitrary<Raw> => {
  const ce = agentEventToCloudEvent(valid);
  const structured = (body: unknown): Raw => ({
    key: null,
    value: JSON.stringify(body),
    headers: { 'content-type': CE_CONTENT_TYPE_STRUCTURED },
  });
  return fc.oneof(
    fc
      .uint8Array({ minLength: 0, maxLength: 200 })
      .map((bytes) => ({ key: null, value: Buffer.from(bytes), headers: {} })),
    fc.string().map((text) => ({ key: null, value: text, headers: { 'content-type': CE_CONTENT_TYPE_STRUCTURED } })),
    fc.json().map((json) => ({ key: null, value: json, headers: { 'content-type': 'application/json' } })),
    fc.constantFrom('v2', 'v0', 'beta').map((v) => structured({ ...ce, type: ce.type.replace(/v1$/, v) })),
    fc
      .constantFrom('dev.tokencircuit.tool_call.deleted.v1', 'com.example.order.created')
      .map((type) => structured({ ...ce, type })),
    fc.constantFrom('specversion', 'id', 'source', 'type', 'tenantid').map((attr) => {
      const copy: Record<string, unknown> = { ...ce };
      delete copy[attr];
      return structured(copy);
    }),
    fc
      .record({ attempt: fc.oneof(fc.constant(0), fc.constant(-1), fc.string()), effect: fc.string() })
      .map((bad) => structured({ ...ce, data: { call: { ...(ce.data as { call: object }).call, ...bad } } })),
    fc.constant(structured({ ...ce, data: { call: { arguments: { blob: 'x'.repeat(LIMITS.eventBytes) } } } })),
  );
};

describe('poison messages', () => {
  let db: TestDatabase;
  let app: INestApplication | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('projector_poison');
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('3,000 malformed records interleaved with valid ones: each malformed one in the DLQ with a reason, every valid one projected', async () => {
    const target: ProjectorTarget = {
      databaseUrl: db.url,
      topic: await createTopic(randomTopic('poison'), 3),
      dlqTopic: await createTopic(randomTopic('poison-dlq'), 1),
      groupId: randomGroupId('poison'),
    };
    const valid = generateTrace({ events: 3_000, seed: 99 });
    const bad = fc.sample(poison(valid[0]!), { numRuns: valid.length, seed: 42 });
    const records: Raw[] = [];
    valid.forEach((event, i) => {
      const record = agentEventRecord(event);
      records.push({
        key: record.key as string,
        value: record.value,
        headers: record.headers as Record<string, string>,
      });
      records.push(bad[i]!);
    });
    const producer = testKafka().producer();
    await producer.connect();
    for (let i = 0; i < records.length; i += 100) {
      await producer.send({ topic: target.topic, acks: -1, messages: records.slice(i, i + 100) });
    }
    await producer.disconnect();

    app = await startProjectorInProcess(target);
    await waitUntilCaughtUp(db.pool, target, 40_000);

    const { rows } = await db.pool.query<{ n: string }>('SELECT count(*)::text AS n FROM agent_events');
    expect(Number(rows[0]!.n)).toBe(valid.length);
    const deadLetters = await collectMessages(target.dlqTopic, bad.length, { maxWait: 60_000 });
    expect(deadLetters).toHaveLength(bad.length);
    for (const message of deadLetters) {
      const header = (name: string) => message.headers[name]?.toString();
      expect(header('tc-dlq-reason'), 'every dead letter says why').toMatch(/\S/);
      expect(header('tc-dlq-source-topic')).toBe(target.topic);
      expect(header('tc-dlq-source-offset')).toMatch(/^\d+$/);
    }
    const ready = await fetch(`${await app.getUrl()}/health/ready`);
    expect(ready.status, 'the projector is still up and consuming').toBe(200);
  }, 300_000);
});
