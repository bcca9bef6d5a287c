import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { Kafka } from 'kafkajs';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * The yardstick for the projector: the same records taken from Kafka and written durably to Postgres with
 * no governance at all. Per kafkajs batch, one transaction: `COPY` of the raw values into a plain table
 * (primary key on the record's coordinates, the value as json like agent_events.cloud_event) and the
 * partition's checkpoint, committed with the server's default durability (synchronous_commit on), exactly
 * the projector's unit of work minus decoding, routing, state and outbox.
 */
export interface RawSinkOptions {
  readonly kafka: Kafka;
  readonly databaseUrl: string;
  readonly topic: string;
  readonly groupId: string;
  readonly maxBytesPerPartition: number;
  readonly partitionsConcurrently: number;
  readonly poolSize: number;
}

export interface RawSink {
  /** Records committed to Postgres so far. */
  readonly done: () => number;
  stop(): Promise<void>;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS bench_raw_sink (
    topic text NOT NULL, partition int NOT NULL, "offset" bigint NOT NULL, value json NOT NULL,
    PRIMARY KEY (topic, partition, "offset"));
  CREATE TABLE IF NOT EXISTS bench_raw_sink_checkpoints (
    topic text NOT NULL, partition int NOT NULL, next_offset bigint NOT NULL, PRIMARY KEY (topic, partition));`;

/** COPY text format: backslash, newline, carriage return and tab are escaped; fields are tab-separated. */
const copyText = (value: string): string =>
  value.replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'));

export async function startRawSink(options: RawSinkOptions): Promise<RawSink> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize });
  await pool.query(SCHEMA);
  let done = 0;
  const consumer = options.kafka.consumer({
    groupId: options.groupId,
    maxBytesPerPartition: options.maxBytesPerPartition,
  });
  await consumer.connect();
  await consumer.subscribe({ topics: [options.topic], fromBeginning: true });
  await consumer.run({
    partitionsConsumedConcurrently: options.partitionsConcurrently,
    eachBatchAutoResolve: true,
    eachBatch: async ({ batch }) => {
      if (batch.messages.length === 0) return;
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const rows = batch.messages.map(
          (m) => `${batch.topic}\t${batch.partition}\t${m.offset}\t${copyText(m.value?.toString('utf8') ?? 'null')}\n`,
        );
        await pipeline(
          Readable.from(rows),
          client.query(copyFrom('COPY bench_raw_sink (topic, partition, "offset", value) FROM STDIN')),
        );
        await client.query(
          `INSERT INTO bench_raw_sink_checkpoints (topic, partition, next_offset) VALUES ($1, $2, $3)
           ON CONFLICT (topic, partition) DO UPDATE SET next_offset = EXCLUDED.next_offset`,
          [batch.topic, batch.partition, (BigInt(batch.lastOffset()) + 1n).toString()],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
      done += batch.messages.length;
    },
  });
  return {
    done: () => done,
    async stop() {
      await consumer.disconnect();
      await pool.end();
    },
  };
}
