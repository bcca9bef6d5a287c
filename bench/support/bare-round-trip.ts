import { randomUUID } from 'node:crypto';
import type { Kafka, Message } from 'kafkajs';
import { produceOpenLoop } from './open-loop.js';

const INDEX_HEADER = 'bench-index';

/**
 * The machine's own floor for the end-to-end figure: the same messages, offered open loop at the same rate
 * through the same broker to a consumer that does nothing but note when each arrives (the subscriber's
 * settings: maxWaitTimeInMs 100). Run beside the pipeline measurement, it tells a slow machine (this p99
 * high too) from a slow pipeline (this p99 low, the pipeline's high). Latency from each message's due time.
 */
export async function bareRoundTrip(
  kafka: Kafka,
  topic: string,
  messages: readonly Message[],
  rate: number,
): Promise<number[]> {
  const arrivedAt = new Float64Array(messages.length).fill(Number.NaN);
  let arrived = 0;
  const consumer = kafka.consumer({ groupId: `bench-bare-${randomUUID()}`, maxWaitTimeInMs: 100 });
  const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    eachBatch: async ({ batch }) => {
      const now = performance.now();
      for (const message of batch.messages) {
        const index = Number(message.headers?.[INDEX_HEADER]?.toString());
        if (Number.isNaN(arrivedAt[index]!)) {
          arrivedAt[index] = now;
          arrived += 1;
        }
      }
    },
  });
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  try {
    await joined;
    await producer.connect();
    const indexed = messages.map((m, i) => ({ ...m, headers: { ...m.headers, [INDEX_HEADER]: String(i) } }));
    const sent = await produceOpenLoop(producer, topic, indexed, rate);
    const deadline = performance.now() + 60_000;
    while (arrived < messages.length) {
      if (performance.now() > deadline)
        throw new Error(`bare round trip: ${arrived} of ${messages.length} messages arrived within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return Array.from(arrivedAt, (at, i) => at - sent.scheduledAt[i]!);
  } finally {
    await producer.disconnect();
    await consumer.disconnect();
  }
}
