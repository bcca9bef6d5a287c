/**
 * Projector throughput against real Kafka and Postgres: one topic, filled once with a realistic mixed
 * trace, drained three times, each with a fresh group — by a bare kafkajs consumer that only counts (the
 * ceiling kafkajs sets on this machine), by the real projector (ProjectorModule booted through Nest in this
 * process: kafkajs eachBatch → ProjectionPipeline → one Postgres transaction per chunk), and by a raw durable
 * sink (kafkajs + COPY of the same records into a plain table, one transaction per batch, no governance:
 * the yardstick for what durable writing alone costs on this machine).
 *   npm run bench:projector [-- --events 200000 --seed 1 --partitions 6 --principals 4 --resources 3]
 *   (--principals 2000 --resources 1000: a wide fleet, where batches rarely share fleet coordinates)
 *   (--instances N, default 2: a fourth drain by N projector processes as deployed, in one group, on a database of
 *   their own — whether the rate grows with instances on this machine; --instances 1 leaves it out)
 * Projector settings come from the environment as in production (PROJECTOR_CHUNK_SIZE, DATABASE_POOL_SIZE, …).
 * See docs/benchmarks.md ("Projector") for how to read the figures. Not a test: nothing here asserts a time.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { INestApplication } from '@nestjs/common';
import pino from 'pino';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { generateTrace, waitFor } from '@tokencircuit/testing';
import { loadProjectorConfig } from '@tokencircuit/projector-service';
import { composeKafkaPostgresModule } from '@tokencircuit/composition';
import { histogramMean } from './support/app-metrics.js';
import { createBenchDatabase, type BenchDatabase } from './support/bench-database.js';
import { withBenchRig } from './support/bench-rig.js';
import type { BenchKafka } from './support/local-kafka.js';
import { ServiceProcess } from './support/service-process.js';
import { positiveIntOptions } from './support/cli-options.js';
import { clockDrain, steadyRate, wallRate, type Drain } from './support/drain-clock.js';
import { holdWal, walByKind, walByKindLines, walByTable, walByTableLine } from './support/wal-by-table.js';
import { loadLine, machineLine } from './support/machine.js';
import { peakRssMiB, processRssMiB, sampleRss } from './support/memory.js';
import { cpuLine, cpuSecondsBetween, cpuSnapshot } from './support/process-cpu.js';
import { fmt } from './support/quantiles.js';
import { startRawSink } from './support/raw-sink.js';
import { produceAll } from './support/trace-records.js';

const options = positiveIntOptions({
  events: 200_000,
  seed: 1,
  partitions: 6,
  principals: 4,
  resources: 3,
  instances: 2,
});
const GOAL_EVENTS_PER_SECOND = 20_000;
// Issue 33: half the raw sink's steady rate, at most twice its WAL per event (this database's, by table).
const GOAL_RAW_SINK_RATIO = 0.5;
const GOAL_WAL_RATIO = 2;
const say = (line: string) => process.stdout.write(`${line}\n`);

await withBenchRig('projector', { events: options.partitions, dlq: 1 }, async ({ kafka, db, topics }) => {
  say(`projector benchmark — ${machineLine()}`);
  // Held until the end of the run (both drains' WAL is read by table after the raw sink's); a run that fails
  // ends this process, and the slot goes with its connection.
  const walHold = await holdWal(db.url);
  say(
    `  Kafka ${kafka.brokers.join(',')} (${kafka.source}); Postgres database ${db.name}; topic ${options.partitions} partitions`,
  );

  const generated = performance.now();
  let events = generateTrace({
    events: options.events,
    seed: options.seed,
    principals: options.principals,
    resources: options.resources,
  });
  const byType = new Map<string, number>();
  for (const e of events) byType.set(e.type, (byType.get(e.type) ?? 0) + 1);
  say(
    `  trace: ${fmt(events.length)} events (seed ${options.seed}; ${options.principals} principals and ${options.resources} resources per class per tenant; ${[...byType].map(([t, n]) => `${t} ${fmt(n)}`).join(', ')}) in ${fmt(performance.now() - generated)} ms`,
  );

  const producer = kafka.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const produceStarted = performance.now();
  const bytes = await produceAll(producer, topics.events, events);
  const produceSeconds = (performance.now() - produceStarted) / 1000;
  await producer.disconnect();
  const total = events.length;
  events = []; // the trace is on the broker now; its memory should not count against the consumers
  say(
    `  produced ${fmt(total)} events (${fmt(bytes / 2 ** 20, 1)} MiB of values) in ${fmt(produceSeconds, 1)} s (${fmt(total / produceSeconds)} events/s, acks=all, closed loop) — ${loadLine()}`,
  );

  const admin = kafka.kafka.admin();
  await admin.connect();
  const ends = await admin.fetchTopicOffsets(topics.events);
  await admin.disconnect();
  const onTopic = ends.reduce((sum, p) => sum + Number(p.high), 0);
  if (onTopic !== total) throw new Error(`the topic holds ${onTopic} records, ${total} were produced`);

  const projectorEnv = {
    ...process.env,
    KAFKA_BROKERS: kafka.brokers.join(','),
    DATABASE_URL: db.url,
    AGENT_EVENTS_TOPIC: topics.events,
    DLQ_TOPIC: topics.dlq,
    PROJECTOR_GROUP_ID: `bench-projector-${randomUUID()}`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
    PROJECTOR_HTTP_PORT: '0',
  };
  const config = loadProjectorConfig(projectorEnv);

  // (a) The ceiling: kafkajs fetching and decoding the same records with the projector's fetch size, nothing else.
  const bareRss = sampleRss();
  const brokerPid = await kafka.brokerPid();
  const bareCpu = await cpuSnapshot(brokerPid);
  const bareStarted = performance.now();
  const consumer = kafka.kafka.consumer({
    groupId: `bench-bare-${randomUUID()}`,
    maxBytesPerPartition: config.PROJECTOR_MAX_BYTES_PER_PARTITION,
  });
  let counted = 0;
  let bare: Drain;
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [topics.events], fromBeginning: true });
    await consumer.run({
      eachBatch: async ({ batch }) => {
        counted += batch.messages.length;
      },
    });
    bare = await clockDrain('the bare consumer', bareStarted, total, () => counted);
  } finally {
    await consumer.disconnect();
  }
  const bareCpuLine = cpuLine(bareCpu, await cpuSnapshot(brokerPid), total);
  const bareRssMiB = bareRss.stop();
  report('bare kafkajs consumer (eachBatch, counting only)', bare, bareCpuLine, bareRssMiB);

  // (b) The real projector: until the Postgres checkpoints, written in the same transactions as the state, reach the end.
  const log = pino({ level: config.LOG_LEVEL, base: { app: 'projector-bench' } });
  const projectorRss = sampleRss();
  const projectorCpu = await cpuSnapshot(brokerPid);
  const projectorWal = await walPosition(db.pool);
  const projectorStarted = performance.now();
  // Started (consuming) as composed: the clock above already runs.
  const app = await composeKafkaPostgresModule<INestApplication>('projector', projectorEnv, DEFAULT_CONFIG, log);
  const applied = () => appliedOffsets(db.pool, config.PROJECTOR_GROUP_ID, topics.events);
  let projected: Drain;
  let chunks = { count: 0, mean: 0 };
  let chunkSeconds = { count: 0, mean: 0 };
  try {
    projected = await clockDrain('the projector checkpoints', projectorStarted, total, applied);
    chunks = await histogramMean(app, 'tokencircuit_projector_batch_size');
    chunkSeconds = await histogramMean(app, 'tokencircuit_projector_batch_duration_seconds');
  } finally {
    await app.close();
  }
  const projectorWalEnd = await walPosition(db.pool);
  const projectorCpuEnd = await cpuSnapshot(brokerPid);
  const projectorCpuSeconds = cpuSecondsBetween(projectorCpu, projectorCpuEnd);
  const projectorCpuLine = `${cpuLine(projectorCpu, projectorCpuEnd, total)}; ${walLine(projectorWal, projectorWalEnd, total)}`;
  const projectorRssMiB = projectorRss.stop();
  report(
    `projector (ProjectorModule via Nest: chunk ${config.PROJECTOR_CHUNK_SIZE}, ${config.PROJECTOR_PARTITIONS_CONCURRENTLY} partitions handed over together, ${config.PROJECTOR_TRANSACTIONS_IN_FLIGHT} transactions in flight, max ${fmt(config.PROJECTOR_MAX_BYTES_PER_PARTITION / 1024)} KiB/partition/fetch, pool ${config.DATABASE_POOL_SIZE})`,
    projected,
    projectorCpuLine,
    projectorRssMiB,
  );
  say(
    `  ${fmt(chunks.count)} transactions (each the chunks of one or more partitions) of ${fmt(chunks.mean)} records on average, ${fmt(chunkSeconds.mean * 1000, 1)} ms each`,
  );
  const projectorShares = await walByTable(db.pool, projectorWal, projectorWalEnd);
  say(`  ${walByTableLine(projectorShares, total)}`);
  // Heap inserts, index entries, page splits and full-page images apart: which lever moves which bytes.
  say('  WAL by relation and record kind (≥ 10 bytes/event):');
  for (const line of walByKindLines(await walByKind(db.pool, projectorWal, projectorWalEnd), total, 10))
    say(`    ${line}`);

  // (c) The raw durable sink: the same records, the same pool size and transactions in flight, no governance.
  const rawRss = sampleRss();
  const rawCpu = await cpuSnapshot(brokerPid);
  const rawWal = await walPosition(db.pool);
  const rawStarted = performance.now();
  const sink = await startRawSink({
    kafka: kafka.kafka,
    databaseUrl: db.url,
    topic: topics.events,
    groupId: `bench-raw-sink-${randomUUID()}`,
    maxBytesPerPartition: config.PROJECTOR_MAX_BYTES_PER_PARTITION,
    partitionsConcurrently: config.PROJECTOR_TRANSACTIONS_IN_FLIGHT,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  let raw: Drain;
  try {
    raw = await clockDrain('the raw sink', rawStarted, total, sink.done);
  } finally {
    await sink.stop();
  }
  const rawWalEnd = await walPosition(db.pool);
  report(
    `raw durable sink (kafkajs eachBatch → COPY into a plain table + checkpoint, one transaction per batch, pool ${config.DATABASE_POOL_SIZE})`,
    raw,
    `${cpuLine(rawCpu, await cpuSnapshot(brokerPid), total)}; ${walLine(rawWal, rawWalEnd, total)}`,
    rawRss.stop(),
  );
  const rawShares = await walByTable(db.pool, rawWal, rawWalEnd);
  say(`  ${walByTableLine(rawShares, total)}`);

  // (d) The projector as deployed, several processes in one group: whether the rate grows with instances here.
  const instances =
    options.instances > 1
      ? await drainWithInstances({ instances: options.instances, total, env: projectorEnv, kafka, brokerPid })
      : null;

  const { rows } = await db.pool.query<{
    events: number;
    states: number;
    outbox: number;
    copies: number;
    deltas: number;
    earlier: number;
    bytes: string;
  }>(
    // state_delta and earlier read through to_json: the columns exist from migrations 0047 and 0053 on, and the
    // same benchmark runs on builds before them.
    `SELECT (SELECT count(*)::int FROM agent_events) AS events, (SELECT count(*)::int FROM failure_state) AS states,
            (SELECT count(*)::int FROM decision_outbox) AS outbox,
            (SELECT count(*)::int FROM decision_outbox WHERE state_snapshot IS NOT NULL) AS copies,
            (SELECT count(*)::int FROM decision_outbox o WHERE (to_json(o)->'state_delta')::text <> 'null') AS deltas,
            (SELECT coalesce(sum(json_array_length(to_json(o)->'earlier')), 0)::int FROM decision_outbox o
              WHERE json_typeof(to_json(o)->'earlier') = 'array') AS earlier,
            (SELECT sum(pg_total_relation_size(t))::text FROM unnest(ARRAY['agent_events', 'failure_state',
               'decision_outbox']::regclass[]) AS t) AS bytes`,
  );
  const stored = rows[0]!;
  // A fast wrong projector is no result: every distinct event must be stored exactly once.
  if (stored.events !== total) throw new Error(`agent_events holds ${stored.events} rows for ${total} distinct events`);
  say(
    `  stored: ${fmt(stored.events)} agent_events (= events produced), ${fmt(stored.states)} failure_state rows, ${fmt(stored.outbox)} decision_outbox rows (${fmt(stored.copies)} with a copy of their state, ${fmt(stored.deltas)} with a delta, ${fmt(stored.outbox - stored.copies - stored.deltas)} referring to it, carrying ${fmt(stored.earlier)} earlier transitions of their key); ${fmt(Number(stored.bytes) / 2 ** 20, 1)} MiB with indexes and TOAST (${fmt(Number(stored.bytes) / total)} bytes/event)`,
  );

  const ratio = steadyRate(projected) / steadyRate(bare);
  const rawRatio = steadyRate(projected) / steadyRate(raw);
  say('');
  say(
    `projector ${fmt(steadyRate(projected))} events/s steady (${fmt(wallRate(projected))} from a cold start); goal ${fmt(GOAL_EVENTS_PER_SECOND)}: ${steadyRate(projected) >= GOAL_EVENTS_PER_SECOND ? 'met' : 'NOT met'}`,
  );
  say(
    `projector / raw sink ${rawRatio.toFixed(2)} (steady rates, same run); goal ≥ ${GOAL_RAW_SINK_RATIO}: ${rawRatio >= GOAL_RAW_SINK_RATIO ? 'met' : 'NOT met'}`,
  );
  // The rate goal as CPU: every event costs this process, Postgres and the broker CPU time, and they share this
  // machine's CPUs; at half the raw sink's rate the three together cannot spend more per event than this.
  const budgetUs = (availableParallelism() * 1e6) / (GOAL_RAW_SINK_RATIO * steadyRate(raw));
  say(
    `  that rate needs ≤ ${fmt(budgetUs)} µs of CPU per event (this process + Postgres + broker) with all ${availableParallelism()} CPUs busy; the projector's drain used ${fmt((projectorCpuSeconds * 1e6) / total)}`,
  );
  const projectorOwnWal = ownDatabaseWal(projectorShares);
  const rawOwnWal = ownDatabaseWal(rawShares);
  say(
    projectorOwnWal === null || rawOwnWal === null
      ? 'projector / raw sink WAL per event: n/a (pg_walinspect unavailable, or the WAL already recycled)'
      : `projector / raw sink WAL per event ${(projectorOwnWal / rawOwnWal).toFixed(2)} (${fmt(projectorOwnWal / total)} / ${fmt(rawOwnWal / total)} bytes, this database's records only); goal ≤ ${GOAL_WAL_RATIO}: ${projectorOwnWal / rawOwnWal <= GOAL_WAL_RATIO ? 'met' : 'NOT met'}`,
  );
  say(`projector / bare consumer ${ratio.toFixed(2)} (steady rates; the bare consumer writes nothing)`);
  if (instances !== null) {
    say(
      `projector, ${options.instances} instances / raw sink ${(instances.rate / steadyRate(raw)).toFixed(2)}; / one instance in this process ${(instances.rate / steadyRate(projected)).toFixed(2)}`,
    );
  }
  const broker = brokerPid === null ? null : await processRssMiB(brokerPid);
  say(
    `peak RSS: this process ${fmt(peakRssMiB())} MiB (maxRSS, trace generation included)` +
      (broker
        ? `; Kafka broker (pid ${brokerPid}) ${fmt(broker.rss)} MiB now, ${fmt(broker.peak)} MiB peak (VmHWM)`
        : '; Kafka broker: not measured (not ours)'),
  );
  say(`  ${loadLine()}`);
  await walHold?.release();
});

/** Offsets a group's projector checkpoints say are applied, summed over the topic's partitions. */
async function appliedOffsets(pool: BenchDatabase['pool'], group: string, topic: string): Promise<number> {
  const { rows } = await pool.query<{ applied: string | null }>(
    'SELECT sum(next_offset)::text AS applied FROM projector_checkpoints WHERE consumer_group = $1 AND topic = $2',
    [group, topic],
  );
  return Number(rows[0]?.applied ?? 0);
}

/**
 * `instances` projector processes (apps/projector/src/main.ts, as deployed) in a fresh group on a database of their
 * own (the first drain stored every event already, so on its database they would fold nothing). The clock starts
 * once the group is Stable with every instance in it: an instance that boots later would otherwise take
 * partitions over mid-drain, and the rate would measure the rebalance. Prints its line and returns the rate.
 */
async function drainWithInstances({
  instances,
  total,
  env,
  kafka,
  brokerPid,
}: {
  readonly instances: number;
  readonly total: number;
  readonly env: NodeJS.ProcessEnv;
  readonly kafka: BenchKafka;
  readonly brokerPid: number | null;
}): Promise<{ readonly rate: number }> {
  const db = await createBenchDatabase('tc_bench_projector_instances');
  const group = `bench-projector-instances-${randomUUID()}`;
  const topic = env.AGENT_EVENTS_TOPIC!;
  const services: ServiceProcess[] = [];
  const admin = kafka.kafka.admin();
  try {
    await admin.connect();
    const started = await Promise.allSettled(
      Array.from({ length: instances }, () =>
        ServiceProcess.start('projector', 'PROJECTOR_HTTP_PORT', {
          ...env,
          DATABASE_URL: db.url,
          PROJECTOR_GROUP_ID: group,
        }),
      ),
    );
    for (const s of started) if (s.status === 'fulfilled') services.push(s.value);
    const refused = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (refused) throw refused.reason;
    await waitFor(
      async () => {
        const { groups } = await admin.describeGroups([group]);
        return groups[0]?.state === 'Stable' && groups[0].members.length === instances;
      },
      { maxWait: 120_000, interval: 50, name: `${instances} projector instances in group ${group}` },
    );
    const pids = Object.fromEntries(services.map((s, i) => [`instance ${i + 1}`, s.pid]));
    const before = await appliedOffsets(db.pool, group, topic);
    const cpuFrom = await cpuSnapshot(brokerPid, pids);
    const clockStarted = performance.now();
    const drain = await clockDrain(
      `${instances} projector instances`,
      clockStarted,
      total - before,
      async () => (await appliedOffsets(db.pool, group, topic)) - before,
    );
    const cpuTo = await cpuSnapshot(brokerPid, pids);
    const rate = steadyRate(drain);
    say(
      `\nprojector, ${instances} instances as deployed (processes of apps/projector, one group, a database of their own; the same settings)`,
    );
    say(
      `  ${fmt(before)} events applied while the group formed; then ${fmt(drain.total)} events: ${fmt(rate)} events/s steady (${fmt(drain.total - drain.firstProgress)} in ${fmt(drain.steadySeconds, 2)} s after the first ${fmt(drain.firstProgress)})`,
    );
    say(`  CPU: ${cpuLine(cpuFrom, cpuTo, drain.total)} — ${loadLine()}`);
    const { rows } = await db.pool.query<{ events: number }>('SELECT count(*)::int AS events FROM agent_events');
    if (rows[0]!.events !== total) throw new Error(`agent_events holds ${rows[0]!.events} rows for ${total} events`);
    return { rate };
  } finally {
    await Promise.all(services.map((s) => s.stop()));
    await admin.disconnect();
    await db.drop();
  }
}

/** WAL of this run's database only: the shared server's other databases are counted apart by walByTable. */
function ownDatabaseWal(shares: Awaited<ReturnType<typeof walByTable>>): number | null {
  if (shares === null) return null;
  return shares.filter((s) => !s.table.startsWith('(')).reduce((sum, s) => sum + s.bytes, 0);
}

/** Where the server's write-ahead log ends now; cluster-wide, so a quiet server is what makes it this run's. */
async function walPosition(pool: { query: (sql: string) => Promise<{ rows: { lsn: string }[] }> }): Promise<string> {
  const { rows } = await pool.query('SELECT pg_current_wal_insert_lsn()::text AS lsn');
  return rows[0]!.lsn;
}

/** WAL written between two positions, per event: what a drain costs in bytes the server must write and sync. */
function walLine(from: string, to: string, events: number): string {
  const bytes = Number(lsnBytes(to) - lsnBytes(from));
  return `WAL ${fmt(bytes / 2 ** 20, 1)} MiB (${fmt(bytes / events)} bytes/event)`;
}

function lsnBytes(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

function report(name: string, drain: Drain, cpu: string, rssMiB: number): void {
  say(`\n${name}`);
  say(
    `  ${fmt(drain.total)} events: ${fmt(steadyRate(drain))} events/s steady (${fmt(drain.total - drain.firstProgress)} in ${fmt(drain.steadySeconds, 2)} s after the first ${fmt(drain.firstProgress)}), ` +
      `${fmt(wallRate(drain))} events/s from a cold start (${fmt(drain.wallSeconds, 2)} s incl. connect and group join)`,
  );
  say(`  CPU: ${cpu}; peak sampled RSS of this process ${fmt(rssMiB)} MiB — ${loadLine()}`);
}
