import { afterEach, describe, expect, it } from 'vitest';
import type { InterventionData } from '@tokencircuit/contracts';
import { interventionRecord } from '@tokencircuit/contracts';
import { createTopic, randomTopic, sendMessages, testKafka, waitFor } from '@tokencircuit/testing';
import { KafkaLiveFeed, type LiveSignal } from '@tokencircuit/api-http';

const intervention = (n: number, tenant: string): InterventionData =>
  ({
    interventionId: `i-${tenant}-${n}`,
    tenant,
    run: `run-${n}`,
    keyId: `run|${tenant}|k${n}`,
  }) as unknown as InterventionData;

const message = (data: InterventionData) => {
  const record = interventionRecord(data);
  return {
    key: record.key as string,
    value: record.value as Buffer,
    headers: record.headers as Record<string, string>,
  };
};

/** Connected mode: the dashboard hears about interventions from the interventions topic itself. */
describe('KafkaLiveFeed', () => {
  let feed: KafkaLiveFeed | null = null;
  afterEach(async () => {
    await feed?.close();
    feed = null;
  });

  it('signals every intervention published after it started, with its tenant, key and run', async () => {
    const topic = await createTopic(randomTopic('dashboard-live'), 3);
    const signals: LiveSignal[] = [];
    feed = new KafkaLiveFeed(testKafka(), [topic]);
    await feed.start((signal) => signals.push(signal));
    // A new group starts at the end of the log once it has its partitions: publish until the first arrives.
    let n = 0;
    await waitFor(
      async () => {
        await sendMessages(topic, [message(intervention(n++, 'acme'))]);
        return signals.length > 0;
      },
      { maxWait: 60_000, interval: 500, name: 'the feed to receive its first intervention' },
    );
    const before = signals.length;
    await sendMessages(topic, [message(intervention(1000, 'acme')), message(intervention(1001, 'globex'))]);
    await waitFor(() => signals.length >= before + 2, { maxWait: 30_000, name: 'two more signals' });
    expect(signals.slice(before)).toEqual(
      expect.arrayContaining([
        { tenant: 'acme', type: 'intervention.issued.v1', id: 'i-acme-1000', keyId: 'run|acme|k1000', run: 'run-1000' },
        {
          tenant: 'globex',
          type: 'intervention.issued.v1',
          id: 'i-globex-1001',
          keyId: 'run|globex|k1001',
          run: 'run-1001',
        },
      ]),
    );
  });
});
