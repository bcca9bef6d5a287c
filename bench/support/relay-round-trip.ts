import { randomUUID } from 'node:crypto';
import type { Kafka, Message } from 'kafkajs';
import type pg from 'pg';
import { CONSUMER_FETCH_WAIT_MS } from '@tokencircuit/kafka';
import { Arrivals } from './arrivals.js';

export interface RelayRoundTripOptions {
  readonly kafka: Kafka;
  readonly inTopic: string;
  readonly outTopic: string;
  readonly messages: readonly Message[];
  readonly rate: number;
  /** When given, each batch is inserted and committed here (synchronous_commit as the server has it) before it is passed on. */
  readonly commitTo?: pg.Pool;
}

/**
 * The floor of any pipeline shaped like ours: the same messages, offered open loop at the same rate, go
 * through the broker twice — a relay consumes each batch (the projector's fetch settings), optionally commits
 * it to Postgres, and produces it to a second topic (the decision service's producer settings: idempotent,
 * acks all), where a consumer that only notes arrival takes it (the subscriber's settings). Nothing decodes,
 * governs or waits for a notification: whatever the real pipeline does, an event reaches its intervention
 * through at least this much, so the real pipeline's latency cannot be lower than this one's at any quantile
 * worth reading. Latency from each message's due time.
 */
export async function relayRoundTrip(options: RelayRoundTripOptions): Promise<number[]> {
  const { kafka, inTopic, outTopic, messages, rate, commitTo } = options;
  const arrivals = new Arrivals(messages.length);
  const run = randomUUID();
  if (commitTo)
    await commitTo.query(
      `CREATE TABLE IF NOT EXISTS bench_relay_floor (run text NOT NULL, partition int NOT NULL, "offset" bigint NOT NULL,
         PRIMARY KEY (run, partition, "offset"))`,
    );
  const relayProducer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await relayProducer.connect();
  const relay = kafka.consumer({ groupId: `bench-relay-${run}`, maxWaitTimeInMs: CONSUMER_FETCH_WAIT_MS });
  const subscriber = kafka.consumer({ groupId: `bench-relayed-${run}`, maxWaitTimeInMs: 100 });
  const joined = (consumer: typeof relay) =>
    new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
  const bothJoined = Promise.all([joined(relay), joined(subscriber)]);
  await relay.connect();
  await relay.subscribe({ topics: [inTopic], fromBeginning: true });
  await subscriber.connect();
  await subscriber.subscribe({ topics: [outTopic], fromBeginning: true });
  await relay.run({
    partitionsConsumedConcurrently: 6,
    eachBatch: async ({ batch }) => {
      if (batch.messages.length === 0) return;
      if (commitTo) {
        const client = await commitTo.connect();
        try {
          await client.query('BEGIN');
          await client.query(
            'INSERT INTO bench_relay_floor (run, partition, "offset") SELECT $1, $2, unnest($3::bigint[]) ON CONFLICT DO NOTHING',
            [run, batch.partition, batch.messages.map((m) => m.offset)],
          );
          await client.query('COMMIT');
        } finally {
          client.release();
        }
      }
      await relayProducer.send({
        topic: outTopic,
        acks: -1,
        messages: batch.messages.map((m) => ({ key: m.key, value: m.value, headers: m.headers })),
      });
    },
  });
  await subscriber.run({ eachBatch: arrivals.eachBatch });
  try {
    await bothJoined;
    return await arrivals.offer(kafka, inTopic, messages, rate, 'relay round trip');
  } finally {
    await relay.disconnect();
    await subscriber.disconnect();
    await relayProducer.disconnect();
  }
}
