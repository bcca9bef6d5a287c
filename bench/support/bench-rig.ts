import { randomUUID } from 'node:crypto';
import { waitFor } from '@tokencircuit/testing';
import { createBenchDatabase, type BenchDatabase } from './bench-database.js';
import { acquireKafka, type BenchKafka } from './local-kafka.js';

/** What one benchmark run stands on: a broker, a fresh database and fresh topics, all its own. */
export interface BenchRig<T extends string> {
  readonly kafka: BenchKafka;
  readonly db: BenchDatabase;
  /** Topic names by role, each unique to this run. */
  readonly topics: Record<T, string>;
}

/**
 * Sets up the rig, runs `work`, and undoes whatever was set up — also when setup itself fails half
 * way (a broker still electing leaders, a database refused), so a failed run leaves no database,
 * topic or broker lease behind.
 */
export async function withBenchRig<T extends string, R>(
  name: string,
  partitions: Record<T, number>,
  work: (rig: BenchRig<T>) => Promise<R>,
): Promise<R> {
  const undo: Array<() => Promise<unknown>> = [];
  try {
    const kafka = await acquireKafka(`tc-bench-${name}`);
    undo.push(() => kafka.release());
    const db = await createBenchDatabase(`tc_bench_${name}`);
    // BENCH_KEEP_DATABASE=1 leaves it in place, to EXPLAIN the statements on the rows the run wrote.
    if (process.env.BENCH_KEEP_DATABASE === '1') undo.push(async () => console.log(`kept database ${db.name}`));
    else undo.push(() => db.drop());
    const topics = Object.fromEntries(
      Object.keys(partitions).map((role) => [role, `bench.${name}.${role}.${randomUUID()}`]),
    ) as Record<T, string>;
    const admin = kafka.kafka.admin();
    await admin.connect();
    undo.push(async () => {
      await admin.deleteTopics({ topics: Object.values(topics) }).catch(() => undefined);
      await admin.disconnect();
    });
    await admin.createTopics({
      waitForLeaders: false,
      topics: (Object.keys(partitions) as T[]).map((role) => ({
        topic: topics[role],
        numPartitions: partitions[role],
      })),
    });
    // Polled rather than kafkajs' waitForLeaders, which gives up on a busy broker's UNKNOWN_TOPIC_OR_PARTITION.
    await waitFor(
      async () => {
        const metadata = await admin.fetchTopicMetadata({ topics: Object.values(topics) });
        return metadata.topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0));
      },
      { maxWait: 60_000, interval: 200, name: `leaders for the topics of ${name}` },
    );
    return await work({ kafka, db, topics });
  } finally {
    for (const step of undo.reverse())
      await step().catch((error: unknown) => process.stderr.write(`cleanup: ${String(error)}\n`));
  }
}
