import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import pino from 'pino';
import type pg from 'pg';
import type { AgentEvent, ContentMode } from '@tokencircuit/contracts';
import { agentEventRecord, TOPICS } from '@tokencircuit/contracts';
import { DEFAULT_CONFIG, type TokenCircuitConfig } from '@tokencircuit/governance';
import { readCheckpoints, stateKeyColumns, stateOfRow, type StateKeyColumns } from '@tokencircuit/storage';
import { ensureTopics, randomGroupId, randomTopic, testBrokers, testKafka, waitFor } from '@tokencircuit/testing';
import { composeKafkaPostgresModule } from '@tokencircuit/composition';

const ROOT = resolve(import.meta.dirname, '../../..');

export interface ProjectorTarget {
  readonly databaseUrl: string;
  readonly topic: string;
  readonly dlqTopic: string;
  readonly groupId: string;
}

/**
 * A fresh source topic, dead-letter topic and group under `name`, provisioned from the product's TOPICS data
 * (`dlqConfig` replaces the dead-letter topic's settings, e.g. an operator's too-small max.message.bytes).
 */
export async function provisionProjectorTarget(
  databaseUrl: string,
  name: string,
  options: { readonly partitions?: number; readonly dlqConfig?: Record<string, string> } = {},
): Promise<ProjectorTarget> {
  const target: ProjectorTarget = {
    databaseUrl,
    topic: randomTopic(name),
    dlqTopic: randomTopic(`${name}-dlq`),
    groupId: randomGroupId(name),
  };
  const admin = testKafka().admin();
  await admin.connect();
  try {
    await ensureTopics(admin, [
      { ...TOPICS.agentEvents, name: target.topic, partitions: options.partitions ?? 1 },
      options.dlqConfig
        ? { name: target.dlqTopic, partitions: 1, config: options.dlqConfig }
        : { ...TOPICS.agentEventsDlq, name: target.dlqTopic, maxMessageBytesOf: target.topic },
    ]);
  } finally {
    await admin.disconnect();
  }
  return target;
}

export function projectorEnv(target: ProjectorTarget, extra: Record<string, string> = {}): Record<string, string> {
  return {
    KAFKA_BROKERS: testBrokers().join(','),
    DATABASE_URL: target.databaseUrl,
    AGENT_EVENTS_TOPIC: target.topic,
    DLQ_TOPIC: target.dlqTopic,
    PROJECTOR_GROUP_ID: target.groupId,
    PROJECTOR_HTTP_PORT: '0',
    PROJECTOR_SESSION_TIMEOUT_MS: '10000',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    ...extra,
  };
}

/** The real Nest projector, in this process (the shell included: health, metrics, shutdown hooks). */
export async function startProjectorInProcess(
  target: ProjectorTarget,
  policy: TokenCircuitConfig = DEFAULT_CONFIG,
  extra: Record<string, string> = {},
): Promise<INestApplication> {
  const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'error', base: { app: 'projector-test' } });
  const env = { ...projectorEnv(target, extra), PROJECTOR_HTTP_PORT: '0' };
  return composeKafkaPostgresModule<INestApplication>('projector', env, policy, log);
}

/** The projector as its own OS process (tsx, the same entry point as production), for crash tests. */
export async function spawnProjector(target: ProjectorTarget, logName: string): Promise<ChildProcess> {
  await mkdir(resolve(ROOT, 'tmp'), { recursive: true });
  const log = createWriteStream(resolve(ROOT, 'tmp', `${logName}.log`), { flags: 'a' });
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/projector/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...projectorEnv(target) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  return child;
}

export function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolveExit) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolveExit();
    child.once('exit', () => resolveExit());
    child.kill('SIGKILL');
  });
}

/** The settings of an in-process KafkaEventSource in specs, but its topic and group: one partition and chunk at a time. */
export const SPEC_SOURCE_SETTINGS = {
  sessionTimeoutMs: 10_000,
  maxBytesPerPartition: 1_048_576,
  chunkSize: 100,
  partitionsConcurrently: 1,
  transactionsInFlight: 1,
} as const;

/** Produces agent events as CloudEvents (mode alternates when asked), keyed tenant/run like the SDK does. */
export async function produceEvents(
  topic: string,
  events: readonly AgentEvent[],
  mode: ContentMode | 'mixed' = 'binary',
) {
  const producer = testKafka().producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    for (let start = 0; start < events.length; start += 1_000) {
      const messages = events.slice(start, start + 1_000).map((event, i) => {
        const recordMode: ContentMode = mode === 'mixed' ? ((start + i) % 2 === 0 ? 'binary' : 'structured') : mode;
        const record = agentEventRecord(event, recordMode);
        return { key: record.key, value: record.value, headers: record.headers };
      });
      await producer.send({ topic, acks: -1, messages });
    }
  } finally {
    await producer.disconnect();
  }
}

/** Waits until the Postgres checkpoints of `groupId` reach the end of every partition of `topic`. */
export async function waitUntilCaughtUp(pool: pg.Pool, target: ProjectorTarget, maxWait = 120_000): Promise<void> {
  const admin = testKafka().admin();
  await admin.connect();
  try {
    const ends = await admin.fetchTopicOffsets(target.topic);
    await waitFor(
      async () => {
        const at = await readCheckpoints(pool, target.groupId, target.topic);
        return ends.every((end) => BigInt(end.high) === 0n || (at.get(end.partition) ?? 0n) >= BigInt(end.high));
      },
      { maxWait, interval: 250, name: `projector group ${target.groupId} to reach the end of ${target.topic}` },
    );
  } finally {
    await admin.disconnect();
  }
}

/** failure_state as stored (the full pure state, made whole with its key columns as every reader does), by key id. */
export async function storedStates(pool: pg.Pool): Promise<Map<string, unknown>> {
  const { rows } = await pool.query<{ state: unknown } & StateKeyColumns>(
    `SELECT state, ${stateKeyColumns()} FROM failure_state`,
  );
  return new Map(rows.map((r) => [r.key_id, stateOfRow(r.state, r)]));
}

/** agent_events in the order the projector applied them. */
export async function storedEventsInOrder(pool: pg.Pool): Promise<AgentEvent[]> {
  const { rows } = await pool.query<{ cloud_event: Record<string, unknown> }>(
    'SELECT tokencircuit_cloud_event(agent_events) AS cloud_event FROM agent_events ORDER BY seq',
  );
  const { cloudEventToAgentEvent } = await import('@tokencircuit/contracts');
  return rows.map((r) => cloudEventToAgentEvent(r.cloud_event as never));
}
