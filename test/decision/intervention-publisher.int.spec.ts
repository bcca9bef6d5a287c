import { describe, expect, it } from 'vitest';
import type { InterventionData } from '@tokencircuit/contracts';
import { createGovernance, DEFAULT_CONFIG } from '@tokencircuit/governance';
import { collectMessages, createTopic, generateTrace, randomTopic, testKafka } from '@tokencircuit/testing';
import { KafkaInterventionPublisher } from '@tokencircuit/decision-service';
import { interventionOf } from './support/decision-harness.js';

const governance = createGovernance(DEFAULT_CONFIG);

describe('KafkaInterventionPublisher', () => {
  it('publishes a round far larger than one broker request (size-bounded requests), every intervention intact', async () => {
    const replay = governance.replay(generateTrace({ events: 8_000, seed: 77 }));
    const interventions = replay.outbox
      .map((entry) => governance.intervention(entry, entry.snapshot.updatedAt))
      .filter((i): i is InterventionData => i !== null)
      .slice(0, 1_500);
    const bytes = interventions.reduce((sum, i) => sum + JSON.stringify(i).length, 0);
    expect(bytes, 'the round must exceed the broker default of 1 MiB per request').toBeGreaterThan(1024 * 1024);

    const topic = await createTopic(randomTopic('publisher'), 3);
    const producer = testKafka().producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    try {
      await new KafkaInterventionPublisher(producer, topic).publish(interventions);
    } finally {
      await producer.disconnect();
    }
    const received = (await collectMessages(topic, interventions.length, { maxWait: 60_000 })).map(interventionOf);
    expect(new Map(received.map((i) => [i.interventionId, i]))).toEqual(
      new Map(interventions.map((i) => [i.interventionId, i])),
    );
  }, 120_000);
});
