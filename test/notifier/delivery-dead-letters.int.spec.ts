import { describe, expect, it } from 'vitest';
import { NotifierDeadLetterSchema, type NotifierDeadLetter } from '@tokencircuit/contracts';
import { KafkaDeliveryDeadLetters } from '@tokencircuit/notifier-service';
import { collectMessages, createTopic, randomTopic, testKafka } from '@tokencircuit/testing';
import { freshEpisode } from './support/episode-steps.js';

/** A burst of letters a refusing sink leaves behind, each carrying its step (artifact and receipts). */
function letters(count: number): NotifierDeadLetter[] {
  return Array.from({ length: count }, (_, i) => {
    const step = freshEpisode('page').triggered;
    return {
      deliveryId: `delivery-${i}`,
      sink: 'oncall',
      sinkType: 'pagerduty',
      tenant: step.tenant,
      eventId: step.eventId,
      episodeId: step.episodeId,
      transition: 'triggered',
      attempts: 3,
      lastStatus: 400,
      cause: 'permanent',
      reason: `HTTP 400 from the sink: ${'invalid routing key; '.repeat(20)}`,
      deadAt: new Date(Date.UTC(2026, 0, 1)).toISOString(),
      step,
    };
  });
}

describe('KafkaDeliveryDeadLetters', () => {
  it('parks a burst far larger than one broker request in size-bounded requests, every letter intact', async () => {
    const burst = letters(1_500);
    const bytes = burst.reduce((sum, l) => sum + JSON.stringify(l).length, 0);
    expect(bytes, 'the burst must exceed the broker default of 1 MiB per request').toBeGreaterThan(1024 * 1024);
    const topic = await createTopic(randomTopic('notifier-dlq'), 1);
    const producer = testKafka().producer({ idempotent: true, maxInFlightRequests: 1 });
    const unsplit = testKafka().producer({ retry: { retries: 0 } });
    await Promise.all([producer.connect(), unsplit.connect()]);
    try {
      // The same burst in one request is refused by the broker: what the splitting is for.
      await expect(new KafkaDeliveryDeadLetters(unsplit, topic, Number.POSITIVE_INFINITY).send(burst)).rejects.toThrow(
        /larger than the max message size/,
      );
      await new KafkaDeliveryDeadLetters(producer, topic).send(burst);
    } finally {
      await Promise.all([producer.disconnect(), unsplit.disconnect()]);
    }
    const received = await collectMessages(topic, burst.length, { maxWait: 60_000 });
    expect(received.map((m) => m.key!.toString())).toEqual(burst.map((l) => l.deliveryId));
    expect(received.map((m) => NotifierDeadLetterSchema.parse(JSON.parse(m.value!.toString())))).toEqual(burst);
  }, 120_000);

  it('sends nothing for no letters', async () => {
    const topic = await createTopic(randomTopic('notifier-dlq'), 1);
    const producer = testKafka().producer();
    await producer.connect();
    try {
      await new KafkaDeliveryDeadLetters(producer, topic).send([]);
    } finally {
      await producer.disconnect();
    }
    const admin = testKafka().admin();
    await admin.connect();
    try {
      expect(await admin.fetchTopicOffsets(topic)).toEqual([expect.objectContaining({ partition: 0, high: '0' })]);
    } finally {
      await admin.disconnect();
    }
  });
});
