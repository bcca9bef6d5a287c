import { describe, expect, it } from 'vitest';
import { KafkaAnchorSink } from '@tokencircuit/decision-service';
import type { SignedAnchor } from '@tokencircuit/storage';
import { collectMessages, createTopic, randomTopic, testKafka } from '@tokencircuit/testing';

/** One anchor round of `tenants` tenants (the sink signs nothing: the fields only need their real sizes). */
function anchorRound(tenants: number): SignedAnchor[] {
  return Array.from({ length: tenants }, (_, i) => ({
    v: 1,
    tenant: `tenant-${String(i).padStart(6, '0')}`,
    chain: { seq: i + 1, hash: 'ab'.repeat(32) },
    events: { through: 10 * i, count: i, digest: 'cd'.repeat(32) },
    anchoredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 60)).toISOString(),
    keyId: 'c3db23feed9a131a',
    signature: 'A'.repeat(86) + '==',
  }));
}

describe('KafkaAnchorSink', () => {
  it('publishes a round far larger than one broker request in size-bounded requests, every anchor intact', async () => {
    const anchors = anchorRound(5_000);
    const bytes = anchors.reduce((sum, a) => sum + JSON.stringify(a).length, 0);
    expect(bytes, 'the round must exceed the broker default of 1 MiB per request').toBeGreaterThan(1024 * 1024);
    const topic = await createTopic(randomTopic('anchors'), 1);
    const producer = testKafka().producer({ idempotent: true, maxInFlightRequests: 1 });
    const unsplit = testKafka().producer({ retry: { retries: 0 } });
    await Promise.all([producer.connect(), unsplit.connect()]);
    try {
      // The same round in one request is refused by the broker: what the splitting is for.
      await expect(new KafkaAnchorSink(unsplit, topic, Number.POSITIVE_INFINITY).publish(anchors)).rejects.toThrow(
        /larger than the max message size/,
      );
      await new KafkaAnchorSink(producer, topic).publish(anchors);
    } finally {
      await Promise.all([producer.disconnect(), unsplit.disconnect()]);
    }
    const received = await collectMessages(topic, anchors.length, { maxWait: 60_000 });
    expect(received.map((m) => m.key!.toString())).toEqual(anchors.map((a) => a.tenant));
    expect(received.map((m) => JSON.parse(m.value!.toString()) as SignedAnchor)).toEqual(anchors);
  }, 120_000);
});
