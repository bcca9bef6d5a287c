import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import pino from 'pino';
import { composeKafkaPostgresModule } from '@tokencircuit/composition';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { randomGroupId, testBrokers } from '@tokencircuit/testing';

/** Settings that make retries quick in a test; everything else as in production. */
export const QUICK_RETRIES: Record<string, string> = {
  NOTIFIER_RETRY_BASE_MS: '50',
  NOTIFIER_RETRY_MAX_MS: '200',
  NOTIFIER_POLL_INTERVAL_MS: '50',
  NOTIFIER_HTTP_TIMEOUT_MS: '5000',
  NOTIFIER_LEASE_MS: '8000',
  NOTIFIER_MAX_ATTEMPTS: '3',
  LOG_LEVEL: 'silent',
};

export function writeNotifyFile(config: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'tc-notify-')), 'notify.json');
  writeFileSync(path, JSON.stringify(config));
  return path;
}

export interface NotifierEnvOptions {
  readonly databaseUrl: string;
  readonly episodesTopic: string;
  readonly dlqTopic: string;
  readonly notifyFile: string;
  readonly extra?: Record<string, string>;
}

export function notifierEnv(o: NotifierEnvOptions): Record<string, string> {
  return {
    KAFKA_BROKERS: testBrokers().join(','),
    DATABASE_URL: o.databaseUrl,
    EPISODES_TOPIC: o.episodesTopic,
    NOTIFIER_DLQ_TOPIC: o.dlqTopic,
    NOTIFIER_GROUP_ID: randomGroupId('notifier'),
    TOKENCIRCUIT_NOTIFY_FILE: o.notifyFile,
    ...QUICK_RETRIES,
    ...o.extra,
  };
}

/** The production notifier module (Kafka + Postgres ports) in this process, started. */
export async function startNotifier(env: Record<string, string>): Promise<INestApplicationContext> {
  const log = pino({ level: env.LOG_LEVEL ?? 'info' });
  // Its own health port, as in production; any free one here.
  return composeKafkaPostgresModule('notifier', { NOTIFIER_HTTP_PORT: '0', ...env }, DEFAULT_CONFIG, log);
}
