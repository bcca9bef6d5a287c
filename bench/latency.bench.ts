/**
 * End-to-end latency: an agent event on tokencircuit.agent-events → projector → decision_outbox →
 * decision service → an intervention on the interventions topic → a subscriber. Projector and decision
 * service are the production Nest modules, in this process, against real Kafka and Postgres.
 * A realistic trace (successes mixed with every failure class) is produced open loop at a fixed rate;
 * each intervention is matched to its causing event (the last of causingEventIds) and timed from the
 * moment that event was due to be produced.
 * Before it, the same messages go through the broker alone (produce → a consumer that only notes arrival) at
 * the same rate, and that bare p99 is printed beside the pipeline's: a slow machine shows in both. Then the
 * same messages through two floors of this architecture (relay-round-trip.ts: two broker hops; two hops with a
 * Postgres commit between), which no pipeline of its shape can beat.
 *   npm run bench:latency [-- --rate 1000 --seconds 30 --warmup 5 --seed 1 --bare-seconds 10 --processes 1 --tracing]
 * --tracing turns the services' own OpenTelemetry tracing on (every event carries a traceparent, spans go to an
 * OTLP/HTTP sink on this machine through the SDK's batch processor and protobuf exporter); without it, off.
 * --processes 1 runs projector and decision service inside this process (one Node event loop shared with the
 * load generator and the subscriber); --processes 3 starts each from its apps/<name>/src/main.ts, as deployed.
 * See docs/benchmarks.md ("End-to-end latency"). Not a test: nothing here asserts a time.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import pino from 'pino';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { generateTrace, waitFor } from '@tokencircuit/testing';
import { loadProjectorConfig } from '@tokencircuit/projector-service';
import { composeKafkaPostgresModule } from '@tokencircuit/composition';
import { loadDecisionConfig } from '@tokencircuit/decision-service';
import { withBenchRig } from './support/bench-rig.js';
import { positiveIntOptions } from './support/cli-options.js';
import { InterventionReceiver } from './support/intervention-receiver.js';
import { ServiceProcess } from './support/service-process.js';
import { loadLine, machineLine } from './support/machine.js';
import { peakRssMiB } from './support/memory.js';
import { cpuLine, cpuSnapshot } from './support/process-cpu.js';
import { produceOpenLoop } from './support/open-loop.js';
import { bareRoundTrip } from './support/bare-round-trip.js';
import { relayRoundTrip } from './support/relay-round-trip.js';
import { fmt, latencyLine, quantile } from './support/quantiles.js';
import { stageTimes } from './support/stage-times.js';
import { histogramMean } from './support/app-metrics.js';
import { toMessage } from './support/trace-records.js';
import { SpanSink, withTraceparent } from './support/bench-tracing.js';

// A switch, not a number: taken out before the integer options are read.
const tracing = process.argv.includes('--tracing');
const options = positiveIntOptions(
  {
    rate: 1_000,
    seconds: 30,
    warmup: 5,
    seed: 1,
    'bare-seconds': 10,
    processes: 1,
  },
  process.argv.slice(2).filter((arg) => arg !== '--tracing'),
);
if (options.processes !== 1 && options.processes !== 3)
  throw new Error('--processes is 1 (one process) or 3 (as deployed)');
const separate = options.processes === 3;
const GOAL_P99_MS = 100;
const say = (line: string) => process.stdout.write(`${line}\n`);

await withBenchRig(
  'latency',
  {
    events: 6,
    dlq: 1,
    interventions: 6,
    episodes: 6,
    anchors: 1,
    bare: 6,
    hop: 6,
    hopped: 6,
    commitHop: 6,
    commitHopped: 6,
  },
  async ({ kafka, db, topics }) => {
    const apps: INestApplication[] = [];
    const services: ServiceProcess[] = [];
    const receiver = new InterventionReceiver(kafka.kafka, topics.interventions);
    const sink = tracing ? await SpanSink.start() : null;
    const tracer = separate ? null : (sink?.traceThisProcess() ?? null);
    try {
      say(`end-to-end latency benchmark — ${machineLine()}`);
      say(`  Kafka ${kafka.brokers.join(',')} (${kafka.source}); Postgres database ${db.name}`);

      const env = {
        ...process.env,
        KAFKA_BROKERS: kafka.brokers.join(','),
        DATABASE_URL: db.url,
        AGENT_EVENTS_TOPIC: topics.events,
        DLQ_TOPIC: topics.dlq,
        INTERVENTIONS_TOPIC: topics.interventions,
        // The decision service publishes lifecycle steps and anchors too; services never create topics.
        EPISODES_TOPIC: topics.episodes,
        AUDIT_ANCHORS_TOPIC: topics.anchors,
        PROJECTOR_GROUP_ID: `bench-projector-${randomUUID()}`,
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
        ...(sink ? sink.env() : {}),
      };
      const projectorConfig = loadProjectorConfig(env);
      const decisionConfig = loadDecisionConfig(env);
      const log = pino({ level: projectorConfig.LOG_LEVEL, base: { app: 'latency-bench' } });
      if (separate) {
        services.push(await ServiceProcess.start('projector', 'PROJECTOR_HTTP_PORT', env));
        services.push(await ServiceProcess.start('decision', 'DECISION_HTTP_PORT', env));
      } else {
        const ownPorts = { PROJECTOR_HTTP_PORT: '0', DECISION_HTTP_PORT: '0' };
        for (const name of ['projector', 'decision'] as const) {
          apps.push(await composeKafkaPostgresModule(name, { ...env, ...ownPorts }, DEFAULT_CONFIG, log));
        }
      }
      await receiver.start();

      const total = options.rate * (options.warmup + options.seconds);
      const warmupCount = options.rate * options.warmup;
      const events = generateTrace({ events: total, seed: options.seed, startTime: new Date().toISOString() }).slice(
        0,
        total,
      );
      const failing = events.filter((e) => e.type === 'tool_call.outcome' && e.data.status !== 'succeeded').length;
      const indexOf = new Map(events.map((e, i) => [e.id, i]));
      const messages = events.map(tracing ? (e) => withTraceparent(toMessage(e)) : toMessage);
      say(
        `  ${fmt(total)} events at ${fmt(options.rate)}/s open loop: ${options.warmup} s warm-up (not measured) + ${options.seconds} s measured; ` +
          `${fmt(failing)} failed/unknown outcomes among them (seed ${options.seed})`,
      );
      say(
        `  ${separate ? 'projector and decision service in processes of their own (as deployed)' : 'projector and decision service inside this process'}; ` +
          `projector chunk ${projectorConfig.PROJECTOR_CHUNK_SIZE}, ${projectorConfig.PROJECTOR_TRANSACTIONS_IN_FLIGHT} transactions in flight, pool ${projectorConfig.DATABASE_POOL_SIZE}; decision batch ${decisionConfig.DECISION_BATCH_SIZE}, ` +
          `poll ${decisionConfig.DECISION_POLL_INTERVAL_MS} ms + LISTEN/NOTIFY`,
      );

      // The broker alone, same messages and rate, right before the pipeline run (its own topic and consumer).
      const bareCount = Math.min(messages.length, options.rate * options['bare-seconds']);
      const bare = await bareRoundTrip(kafka.kafka, topics.bare, messages.slice(0, bareCount), options.rate);
      say(
        `  bare produce → consume (${fmt(bareCount)} messages, same rate, broker only): ${latencyLine(bare)} — ${loadLine()}`,
      );
      // The floor of this architecture: an event reaches its intervention through the broker twice, and through
      // Postgres in between. The same messages relayed with nothing else done, then with one commit per batch.
      const floorMessages = messages.slice(0, bareCount);
      const twoHops = await relayRoundTrip({
        kafka: kafka.kafka,
        inTopic: topics.hop,
        outTopic: topics.hopped,
        messages: floorMessages,
        rate: options.rate,
      });
      say(
        `  floor: produce → relay → consume (two broker hops, nothing else): ${latencyLine(twoHops)} — ${loadLine()}`,
      );
      const twoHopsCommitted = await relayRoundTrip({
        kafka: kafka.kafka,
        inTopic: topics.commitHop,
        outTopic: topics.commitHopped,
        messages: floorMessages,
        rate: options.rate,
        commitTo: db.pool,
      });
      say(
        `  floor: produce → relay (one Postgres commit per batch) → consume: ${latencyLine(twoHopsCommitted)} — ${loadLine()}`,
      );

      const producer = kafka.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
      await producer.connect();
      const brokerPid = await kafka.brokerPid();
      const servicePids = Object.fromEntries(services.map((service) => [service.name, service.pid]));
      const cpuFrom = await cpuSnapshot(brokerPid, servicePids);
      const sent = await produceOpenLoop(producer, topics.events, messages, options.rate);
      await producer.disconnect();
      const cpuWhileSending = cpuLine(cpuFrom, await cpuSnapshot(brokerPid, servicePids), total);
      say(
        `  sent in ${fmt(sent.sentSeconds, 1)} s (${fmt(total / sent.sentSeconds)} events/s, ${fmt(sent.requests)} requests); due → acked ${latencyLine(sent.ackLatenciesMs)} — ${loadLine()}`,
      );

      // Drained: the outbox has nothing pending and the subscriber holds every intervention the trail recorded.
      const stored = async () => {
        const { rows } = await db.pool.query<{
          events: number;
          pending: number;
          interventions: number;
          outbox: number;
        }>(
          `SELECT (SELECT count(*)::int FROM agent_events) AS events,
              (SELECT count(*)::int FROM decision_outbox WHERE published_at IS NULL) AS pending,
              (SELECT count(*)::int FROM decision_outbox) AS outbox,
              (SELECT count(*)::int FROM interventions) AS interventions`,
        );
        return rows[0]!;
      };
      await waitFor(
        async () => {
          const now = await stored();
          return now.events === total && now.pending === 0 && receiver.receipts.size >= now.interventions;
        },
        {
          maxWait: 120_000,
          interval: 100,
          name: 'every event projected, the outbox drained and every intervention at the subscriber',
        },
      ).catch(async (error: unknown) => {
        const now = await stored();
        throw new Error(
          `${(error as Error).message} (${total} produced; ${JSON.stringify(now)}; received ${receiver.receipts.size})`,
        );
      });
      const counts = await stored();
      const histogram = (service: 0 | 1, name: string) =>
        separate ? services[service]!.histogramMean(name) : histogramMean(apps[service]!, name);
      const chunkSize = await histogram(0, 'tokencircuit_projector_batch_size');
      const chunkSeconds = await histogram(0, 'tokencircuit_projector_batch_duration_seconds');
      const outboxWait = await histogram(1, 'tokencircuit_decision_publish_latency_seconds');

      const stages = await stageTimes(db.pool);
      const toEpoch = (perf: number) => performance.timeOrigin + perf;
      const endToEnd: number[] = [];
      const toProjector: number[] = [];
      const toDecision: number[] = [];
      const toSubscriber: number[] = [];
      let warmupReceipts = 0;
      let unmatched = 0;
      for (const receipt of receiver.receipts.values()) {
        const index = indexOf.get(receipt.causingEventId);
        if (index === undefined) {
          unmatched += 1;
          continue;
        }
        if (index < warmupCount) {
          warmupReceipts += 1;
          continue;
        }
        const due = sent.scheduledAt[index]!;
        endToEnd.push(receipt.receivedAt - due);
        const stage = stages.get(receipt.interventionId);
        if (stage) {
          toProjector.push(stage.projectedAt - toEpoch(due));
          toDecision.push(stage.decidedAt - stage.projectedAt);
          toSubscriber.push(toEpoch(receipt.receivedAt) - stage.decidedAt);
        }
      }
      if (unmatched > 0) throw new Error(`${unmatched} interventions name a causing event this run never produced`);
      if (endToEnd.length === 0) throw new Error('no intervention was caused by a measured event: raise --seconds');

      say('');
      say(
        `${fmt(counts.events)} agent_events stored; ${fmt(counts.outbox)} outbox rows → ${fmt(counts.interventions)} interventions in the audit trail → ` +
          `${fmt(receiver.receipts.size)} received (${fmt(receiver.duplicates)} redelivered copies); ${fmt(endToEnd.length)} measured, ${fmt(warmupReceipts)} from the warm-up`,
      );
      say(`event due → intervention received: ${latencyLine(endToEnd)}`);
      say(`  stages (Postgres transaction start times; each stage includes queueing for the next):`);
      say(`    due → projector transaction   ${latencyLine(toProjector)}`);
      say(`    projector → decision round    ${latencyLine(toDecision)}`);
      say(`    decision round → subscriber   ${latencyLine(toSubscriber)}`);
      say(
        `  projector: ${fmt(chunkSize.count)} transactions of ${fmt(chunkSize.mean, 1)} records on average, ${fmt(chunkSeconds.mean * 1000, 1)} ms each; ` +
          `decision: outbox rows waited ${fmt(outboxWait.mean * 1000, 1)} ms on average before their round`,
      );
      const sorted = [...endToEnd].sort((a, b) => a - b);
      const p99 = sorted[Math.ceil(0.99 * sorted.length) - 1]!;
      const p99Of = (sample: readonly number[]) => quantile(Float64Array.from(sample).sort(), 0.99);
      const bareP99 = p99Of(bare);
      say(
        `p99 ${fmt(p99, 1)} ms; goal < ${GOAL_P99_MS} ms: ${p99 < GOAL_P99_MS ? 'met' : 'NOT met'} ` +
          `(bare produce → consume p99 of this run: ${fmt(bareP99, 1)} ms)`,
      );
      say(
        `p99 / bare p99 ${fmt(p99 / bareP99, 2)}; issue 33's goal ≤ 1.3: ${p99 <= 1.3 * bareP99 ? 'met' : 'NOT met'}; ` +
          `the floors' own: two hops ${fmt(p99Of(twoHops) / bareP99, 2)}, two hops and a commit ${fmt(p99Of(twoHopsCommitted) / bareP99, 2)}`,
      );
      say(
        `CPU while sending (${separate ? 'this process = producer + subscriber' : 'this process = producer + projector + decision + subscriber'}): ${cpuWhileSending}; peak RSS of this process ${fmt(peakRssMiB())} MiB`,
      );
      if (sink) {
        await tracer?.forceFlush();
        say(
          `tracing on: ${fmt(sink.requests)} OTLP exports, ${fmt(sink.bytes / 1024 / 1024, 1)} MiB of spans (${separate ? 'service processes' : 'this process'})`,
        );
      } else say('tracing off');
      say(`  ${loadLine()}`);
    } finally {
      await tracer?.shutdown().catch(() => undefined);
      await sink?.close();
      await receiver.stop().catch(() => undefined);
      for (const app of apps.reverse()) await app.close().catch(() => undefined);
      for (const service of services.reverse()) await service.stop().catch(() => undefined);
    }
  },
);
