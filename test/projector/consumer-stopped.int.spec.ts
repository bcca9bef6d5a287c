import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { KafkaEventSource } from '../../libs/projector-service/src/kafka-event-source.js';
import { createTopic, randomGroupId, randomTopic, sendMessages, testKafka, waitFor } from '@tokencircuit/testing';
import { SPEC_SOURCE_SETTINGS } from './support/projector-harness.js';

// kafkajs treats a TypeError, RangeError, ReferenceError or SyntaxError thrown from eachBatch as unrecoverable:
// the consumer crashes with restart=false and never consumes again, while the process (and its HTTP health
// endpoints) stay up. The source must say so, so liveness can fail and the process be replaced.
describe('a consumer kafkajs will not restart (real Kafka)', () => {
  const kafka = testKafka();
  let source: KafkaEventSource | null = null;
  afterAll(async () => source?.stop().catch(() => undefined));

  it('is reported through onStopped, with the error that stopped it', async () => {
    const topic = await createTopic(randomTopic('consumer-stopped'), 1, kafka);
    await sendMessages(topic, [{ key: 'k', value: '{}' }], kafka);
    const stopped: unknown[] = [];
    source = new KafkaEventSource(
      kafka,
      { topic, groupId: randomGroupId('consumer-stopped'), ...SPEC_SOURCE_SETTINGS },
      pino({ level: 'silent' }),
      'test broker',
    );
    await source.start(
      {
        // A programming error inside the batch handler, as a bug in the pipeline would raise.
        process: async () => {
          throw new TypeError("Cannot read properties of undefined (reading 'state')");
        },
      },
      { checkpoints: async () => new Map(), onStopped: (error) => stopped.push(error) },
    );
    await waitFor(() => (stopped.length > 0 ? true : undefined), { maxWait: 30_000, name: 'consumer stopped' });
    expect(String((stopped[0] as Error).message)).toContain("reading 'state'");
  });
});
