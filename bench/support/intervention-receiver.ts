import { randomUUID } from 'node:crypto';
import type { Consumer, Kafka } from 'kafkajs';

export interface Receipt {
  readonly interventionId: string;
  /** The event whose fold produced the intervention: the last of its causingEventIds. */
  readonly causingEventId: string;
  /** performance.now() when the batch holding it reached this subscriber. */
  readonly receivedAt: number;
}

/**
 * A subscriber on the interventions topic, like the SDK or a pager: a fresh group from the beginning,
 * recording when each intervention (structured CloudEvent) arrives. Redeliveries are counted, not timed.
 */
export class InterventionReceiver {
  readonly receipts = new Map<string, Receipt>();
  duplicates = 0;
  private readonly consumer: Consumer;

  constructor(
    kafka: Kafka,
    private readonly topic: string,
  ) {
    this.consumer = kafka.consumer({ groupId: `bench-subscriber-${randomUUID()}`, maxWaitTimeInMs: 100 });
  }

  /** Resolves once the group has been joined, so no receipt pays for the join. */
  async start(): Promise<void> {
    const joined = new Promise<void>((resolve) => this.consumer.on(this.consumer.events.GROUP_JOIN, () => resolve()));
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [this.topic], fromBeginning: true });
    await this.consumer.run({
      eachBatch: async ({ batch }) => {
        const receivedAt = performance.now();
        for (const message of batch.messages) {
          const data = (
            JSON.parse(message.value!.toString('utf8')) as {
              data: { interventionId: string; causingEventIds: string[] };
            }
          ).data;
          if (this.receipts.has(data.interventionId)) {
            this.duplicates += 1;
            continue;
          }
          this.receipts.set(data.interventionId, {
            interventionId: data.interventionId,
            causingEventId: data.causingEventIds[data.causingEventIds.length - 1]!,
            receivedAt,
          });
        }
      },
    });
    await joined;
  }

  stop(): Promise<void> {
    return this.consumer.disconnect();
  }
}
