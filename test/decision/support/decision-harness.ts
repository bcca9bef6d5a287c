import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import pino from 'pino';
import { cloudEventToIntervention, fromKafkaRecord, type InterventionData } from '@tokencircuit/contracts';
import { DEFAULT_CONFIG, type TokenCircuitConfig } from '@tokencircuit/governance';
import { testBrokers, testKafka, waitFor, type ReceivedMessage } from '@tokencircuit/testing';
import { composeKafkaPostgresModule } from '@tokencircuit/composition';

const ROOT = resolve(import.meta.dirname, '../../..');

export interface DecisionTarget {
  readonly databaseUrl: string;
  readonly interventionsTopic: string;
}

export function decisionEnv(target: DecisionTarget): Record<string, string> {
  return {
    KAFKA_BROKERS: testBrokers().join(','),
    DATABASE_URL: target.databaseUrl,
    INTERVENTIONS_TOPIC: target.interventionsTopic,
    DECISION_HTTP_PORT: '0',
    DECISION_POLL_INTERVAL_MS: '250',
    // Small rounds: many commits per burst, so a kill lands between and inside them.
    DECISION_BATCH_SIZE: '100',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
  };
}

/** The real Nest decision service in this process. */
export async function startDecisionInProcess(
  target: DecisionTarget,
  policy: TokenCircuitConfig = DEFAULT_CONFIG,
): Promise<INestApplication> {
  const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'error', base: { app: 'decision-test' } });
  const env = { ...decisionEnv(target), DECISION_HTTP_PORT: '0' };
  return composeKafkaPostgresModule<INestApplication>('decision', env, policy, log);
}

/** The decision service as its own OS process (the production entry point through tsx), for crash tests. */
export async function spawnDecision(target: DecisionTarget, logName: string): Promise<ChildProcess> {
  await mkdir(resolve(ROOT, 'tmp'), { recursive: true });
  const log = createWriteStream(resolve(ROOT, 'tmp', `${logName}.log`), { flags: 'a' });
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/decision/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...decisionEnv(target) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  return child;
}

export function interventionOf(message: ReceivedMessage): InterventionData {
  return cloudEventToIntervention(
    fromKafkaRecord({ key: message.key, value: message.value, headers: message.headers }),
  );
}

/** A consumer that keeps every intervention published to `topic`, from the beginning, until stopped. */
export async function interventionRecorder(topic: string) {
  const received: InterventionData[] = [];
  const consumer = testKafka().consumer({
    groupId: `recorder-${Math.random().toString(36).slice(2)}`,
    maxWaitTimeInMs: 50,
  });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message, partition }) => {
      received.push(
        interventionOf({
          topic,
          partition,
          offset: message.offset,
          key: message.key,
          value: message.value,
          headers: Object.fromEntries(
            Object.entries(message.headers ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v[v.length - 1] : v]),
          ),
        }),
      );
    },
  });
  return {
    received,
    async waitForIds(ids: Iterable<string>, maxWait = 60_000) {
      const wanted = new Set(ids);
      // An empty list would be "seen" before anything arrived: a wait for nothing is the caller's mistake.
      if (wanted.size === 0) throw new Error('waitForIds: no intervention ids to wait for');
      await waitFor(
        () => {
          const seen = new Set(received.map((r) => r.interventionId));
          return [...wanted].every((id) => seen.has(id));
        },
        { maxWait, interval: 100, name: `${wanted.size} expected interventions on ${topic}` },
      );
    },
    stop: () => consumer.disconnect(),
  };
}
