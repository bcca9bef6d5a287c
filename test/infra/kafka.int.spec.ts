import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import {
  TOPICS,
  agentEventToCloudEvent,
  cloudEventToAgentEvent,
  fromKafkaRecord,
  parseAgentEvent,
  partitionKey,
  toKafkaRecord,
  type AgentEvent,
  type ContentMode,
} from '@tokencircuit/contracts';
import { agentEventRecord } from '@tokencircuit/contracts';
import { outcome } from '@tokencircuit/contracts/testing';
import {
  collectMessages,
  createTopic,
  partitionCounts,
  randomTopic,
  sendMessages,
  testKafka,
} from '@tokencircuit/testing';

// A failed, mutating call that timed out after dispatch: the event the whole product exists for.
function ambiguousOutcome(id: string): AgentEvent {
  return parseAgentEvent(
    outcome(
      'acme',
      {
        agent: 'billing-agent',
        run: 'run-7',
        callId: `call-${id}`,
        attempt: 1,
        intentId: 'refund-order-42',
        tool: 'payments.refund',
        effect: 'write',
        resourceClass: 'api_endpoint',
        resourceId: 'POST /v1/refunds',
        principal: 'svc-billing',
        arguments: { order: 42, amount: { value: '19.99', currency: 'EUR' }, note: 'Grüße ✓' },
        idempotencyKey: null,
        httpMethod: 'POST',
      },
      {
        status: 'unknown',
        durationMs: 30_000,
        error: { errno: 'ETIMEDOUT', message: 'socket timeout after 30000 ms', headers: { 'retry-after': '5' } },
        dispatch: { requestSent: true, responseReceived: false },
      },
      { id, time: '2026-11-29T10:15:30.123+01:00' },
    ),
  );
}

describe('the shared Kafka of the int tests', () => {
  let admin: Admin;
  beforeAll(async () => {
    admin = testKafka().admin();
    await admin.connect();
  });
  afterAll(async () => {
    await admin.disconnect();
  });

  it('has every product topic with the partition count TOPICS declares', async () => {
    const specs = Object.values(TOPICS);
    const counts = await partitionCounts(
      admin,
      specs.map((topic) => topic.name),
    );
    expect(Object.fromEntries(counts)).toEqual(
      Object.fromEntries(specs.map((topic) => [topic.name, topic.partitions])),
    );
  });

  describe.each<ContentMode>(['binary', 'structured'])('a CloudEvent in %s content mode', (mode) => {
    it('comes back through the broker identical, with its partition key', async () => {
      const event = ambiguousOutcome(`evt-${mode}-1`);
      const cloudEvent = agentEventToCloudEvent(event, '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
      const key = partitionKey(event.tenant, 'run-7');
      const topic = await createTopic(randomTopic(`ce-${mode}`));

      await sendMessages(topic, [toKafkaRecord(cloudEvent, mode, key)]);
      const [received] = await collectMessages(topic, 1);

      expect(received!.key?.toString('utf8')).toBe(key);
      const decoded = fromKafkaRecord(received!);
      expect(decoded).toEqual(cloudEvent);
      expect(cloudEventToAgentEvent(decoded)).toEqual(event);
    });
  });

  it('keeps the events of one run on one partition, in the order they were sent', async () => {
    const topic = await createTopic(randomTopic('ordering'), TOPICS.agentEvents.partitions);
    const events = Array.from({ length: 12 }, (_, i) => ambiguousOutcome(`evt-order-${i}`));
    // Every event is of run-7: agentEventRecord keys them all acme/run-7.
    await sendMessages(
      topic,
      events.map((event) => agentEventRecord(event)),
    );
    const received = await collectMessages(topic, events.length);

    expect(new Set(received.map((message) => message.partition)).size).toBe(1);
    expect(received.map((message) => cloudEventToAgentEvent(fromKafkaRecord(message)).id)).toEqual(
      events.map((event) => event.id),
    );
  });
});
