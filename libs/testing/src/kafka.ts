import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Consumer, type IHeaders, type Message } from 'kafkajs';
import { inject } from 'vitest';
import { waitFor } from './wait-for.js';

/** Bootstrap brokers of the real Kafka that the int project's global setup resolved. */
export function testBrokers(): string[] {
  const brokers = inject('kafkaBrokers')
    .split(',')
    .map((broker) => broker.trim())
    .filter(Boolean);
  if (brokers.length === 0) {
    throw new Error(
      'no Kafka brokers were provided: run Kafka tests in the "int" vitest project (its globalSetup resolves Kafka)',
    );
  }
  return brokers;
}

/** A kafkajs client on the shared test broker; quiet, because failures surface as thrown errors. */
export function testKafka(clientId = `tc-test-${randomUUID().slice(0, 8)}`, level = logLevel.NOTHING): Kafka {
  return new Kafka({ clientId, brokers: testBrokers(), logLevel: level });
}

/** A topic name no other test (or earlier run against the same broker) uses. */
export function randomTopic(prefix = 'test'): string {
  return `${prefix}.${randomUUID()}`;
}

/** A consumer group id no other test uses, so every consumer starts from its own offsets. */
export function randomGroupId(prefix = 'test-group'): string {
  return `${prefix}.${randomUUID()}`;
}

/** Creates `name` with `partitions` partitions and waits for their leaders; returns the name. */
export async function createTopic(name: string, partitions = 1, kafka = testKafka()): Promise<string> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    try {
      await admin.createTopics({ waitForLeaders: true, topics: [{ topic: name, numPartitions: partitions }] });
    } catch (error) {
      // KRaft answers the leader wait with UNKNOWN_TOPIC_OR_PARTITION while the new topic's metadata is still
      // propagating (seen on a loaded machine); kafkajs only retries LEADER_NOT_AVAILABLE, so wait here.
      if ((error as { type?: string }).type !== 'UNKNOWN_TOPIC_OR_PARTITION') throw error;
    }
    await waitFor(
      async () => {
        const metadata = await admin.fetchTopicMetadata({ topics: [name] }).catch(() => undefined);
        const found = metadata?.topics.find((topic) => topic.name === name);
        const ready = found?.partitions.length === partitions && found.partitions.every((p) => p.leader >= 0);
        return ready ? true : undefined;
      },
      { maxWait: 30_000, interval: 100, name: `leaders of every partition of new topic ${name}` },
    );
  } finally {
    await admin.disconnect();
  }
  return name;
}

/** Sends `messages` to `topic` with a short-lived producer (acks from all in-sync replicas). */
export async function sendMessages(topic: string, messages: Message[], kafka = testKafka()): Promise<void> {
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    await producer.send({ topic, messages, acks: -1 });
  } finally {
    await producer.disconnect();
  }
}

/** A consumed record, copied out of kafkajs' batch buffers. */
export interface ReceivedMessage {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  /** Repeated header names keep their last value, as the CloudEvents Kafka binding reads them. */
  readonly headers: Record<string, Buffer | string | undefined>;
}

export interface ConsumeOptions {
  /** Defaults to a fresh random group. */
  readonly groupId?: string;
  /** Defaults to true: read what was produced before the consumer joined. */
  readonly fromBeginning?: boolean;
  readonly maxWait?: number;
  /** Names the timeout: "Timed out … waiting for <name>". */
  readonly name?: string;
  readonly kafka?: Kafka;
}

function lastValues(headers: IHeaders | undefined): Record<string, Buffer | string | undefined> {
  const flat: Record<string, Buffer | string | undefined> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    flat[name] = Array.isArray(value) ? value[value.length - 1] : value;
  }
  return flat;
}

/**
 * Consumes `topic` until `done(received)` holds, then disconnects and returns everything received.
 * Fails with a named timeout (never hangs on a bare sleep) when the condition does not come true.
 */
export async function consumeUntil(
  topic: string,
  done: (received: readonly ReceivedMessage[]) => boolean,
  { groupId = randomGroupId(), fromBeginning = true, maxWait = 30_000, name, kafka = testKafka() }: ConsumeOptions = {},
): Promise<ReceivedMessage[]> {
  const received: ReceivedMessage[] = [];
  const consumer: Consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning });
    await consumer.run({
      eachMessage: async ({ topic: from, partition, message }) => {
        received.push({
          topic: from,
          partition,
          offset: message.offset,
          key: message.key === null ? null : Buffer.from(message.key),
          value: message.value === null ? null : Buffer.from(message.value),
          headers: lastValues(message.headers),
        });
      },
    });
    await waitFor(() => done(received), { maxWait, name: name ?? `the expected messages on ${topic}` });
    return [...received];
  } finally {
    await consumer.disconnect();
  }
}

/** Consumes `topic` until at least `count` messages arrived; returns them in arrival order. */
export function collectMessages(
  topic: string,
  count: number,
  options: ConsumeOptions = {},
): Promise<ReceivedMessage[]> {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`count must be a positive integer, got ${count}`);
  return consumeUntil(topic, (received) => received.length >= count, {
    ...options,
    name: options.name ?? `${count} message(s) on ${topic}`,
  });
}
