import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Consumer, Kafka } from 'kafkajs';
import { CONSUMER_FETCH_WAIT_MS, retryAtStart } from '@tokencircuit/kafka';
import type { LiveFeed } from './live-feed.port.js';
import { liveSignalOf, type LiveSignal } from './live-signal.js';

/**
 * The interventions and episode topics as the live view's feed, connected mode. Each API instance reads every
 * partition from the end in a group of its own (every instance must see every signal; none needs
 * what happened before it started: a page loads the current state when it connects).
 */
export class KafkaLiveFeed implements LiveFeed {
  private consumer: Consumer | null = null;

  constructor(
    private readonly kafka: Kafka,
    private readonly topics: readonly string[],
    private readonly groupId = `tokencircuit-dashboard-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
  ) {}

  async start(onSignal: (signal: LiveSignal) => void): Promise<void> {
    const consumer = this.kafka.consumer({
      groupId: this.groupId,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: CONSUMER_FETCH_WAIT_MS,
    });
    this.consumer = consumer;
    // Retried while a new cluster elects the topics' leaders (issue 27): the API must not die of a cold broker.
    await retryAtStart(`the dashboard live feed of ${this.topics.join(', ')}`, async () => {
      await consumer.connect();
      await consumer.subscribe({ topics: [...this.topics], fromBeginning: false });
    });
    await consumer.run({
      autoCommit: false, // a throwaway group: its position is never read again
      eachMessage: async ({ message }) => {
        const signal = liveSignalOf({ key: message.key, value: message.value, headers: flatHeaders(message.headers) });
        if (signal !== null) onSignal(signal);
      },
    });
  }

  async close(): Promise<void> {
    await this.consumer?.disconnect();
    this.consumer = null;
  }
}

function flatHeaders(headers: Record<string, unknown> | undefined): Record<string, Buffer | string | undefined> {
  const flat: Record<string, Buffer | string | undefined> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    flat[name] = typeof first === 'string' || Buffer.isBuffer(first) ? first : undefined;
  }
  return flat;
}
