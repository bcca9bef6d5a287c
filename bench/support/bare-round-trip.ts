import { randomUUID } from 'node:crypto';
import type { Kafka, Message } from 'kafkajs';
import { Arrivals } from './arrivals.js';

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
  const arrivals = new Arrivals(messages.length);
  const consumer = kafka.consumer({ groupId: `bench-bare-${randomUUID()}`, maxWaitTimeInMs: 100 });
  const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({ eachBatch: arrivals.eachBatch });
  try {
    await joined;
    return await arrivals.offer(kafka, topic, messages, rate, 'bare round trip');
  } finally {
    await consumer.disconnect();
  }
}
