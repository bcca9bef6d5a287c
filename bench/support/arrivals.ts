import type { EachBatchPayload, Kafka, Message } from 'kafkajs';
import { produceOpenLoop } from './open-loop.js';

const INDEX_HEADER = 'bench-index';

/**
 * When each of `count` indexed messages first reached a consumer that only notes arrival (the bare round trip's
 * and the floors'), and the open-loop offer that measures them from their due times.
 */
export class Arrivals {
  private readonly arrivedAt: Float64Array;
  private arrived = 0;

  constructor(private readonly count: number) {
    this.arrivedAt = new Float64Array(count).fill(Number.NaN);
  }

  /** A consumer's eachBatch: notes the first arrival of each message. */
  readonly eachBatch = async ({ batch }: EachBatchPayload): Promise<void> => {
    const now = performance.now();
    for (const message of batch.messages) {
      const index = Number(message.headers?.[INDEX_HEADER]?.toString());
      if (Number.isNaN(this.arrivedAt[index]!)) {
        this.arrivedAt[index] = now;
        this.arrived += 1;
      }
    }
  };

  /** Offers `messages` (indexed) to `topic` open loop at `rate`, waits for every arrival; latency from each due time. */
  async offer(
    kafka: Kafka,
    topic: string,
    messages: readonly Message[],
    rate: number,
    name: string,
  ): Promise<number[]> {
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    try {
      await producer.connect();
      const indexed = messages.map((m, i) => ({ ...m, headers: { ...m.headers, [INDEX_HEADER]: String(i) } }));
      const sent = await produceOpenLoop(producer, topic, indexed, rate);
      const deadline = performance.now() + 60_000;
      while (this.arrived < this.count) {
        if (performance.now() > deadline)
          throw new Error(`${name}: ${this.arrived} of ${this.count} messages arrived within 60 s`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return Array.from(this.arrivedAt, (at, i) => at - sent.scheduledAt[i]!);
    } finally {
      await producer.disconnect();
    }
  }
}
