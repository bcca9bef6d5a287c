import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { TOPICS } from '@tokencircuit/contracts';
import {
  ConfigError,
  databaseUrl,
  loadKafkaConnection,
  logLevel,
  parseEnv,
  port,
  positiveInt,
  type KafkaConnection,
} from '@tokencircuit/config';
import { loadNotifyConfig, NotifyConfigError, type NotifyConfig } from '@tokencircuit/notifier';

/** What the notifier module itself needs, whatever its ports are (the embedded mode reads the same). */
const notifierSettingsSchema = z
  .object({
    /** Attempts per delivery, the first included; after the last it is dead-lettered. */
    NOTIFIER_MAX_ATTEMPTS: positiveInt.max(100).default(8),
    NOTIFIER_RETRY_BASE_MS: positiveInt.default(1_000),
    NOTIFIER_RETRY_MAX_MS: positiveInt.default(300_000),
    /** The longest Retry-After honoured (a receiver asking for more is retried after this). */
    NOTIFIER_RETRY_AFTER_MAX_MS: positiveInt.default(3_600_000),
    NOTIFIER_HTTP_TIMEOUT_MS: positiveInt.default(10_000),
    /** A claimed delivery not finished within this is taken again (its notifier died mid-delivery). */
    NOTIFIER_LEASE_MS: positiveInt.default(60_000),
    /** Consecutive retriable failures that open a sink's circuit breaker, and how long it stays open. */
    NOTIFIER_BREAKER_FAILURES: positiveInt.max(1_000).default(5),
    NOTIFIER_BREAKER_COOLDOWN_MS: positiveInt.default(30_000),
    /** Safety-net polling for due retries; new deliveries wake the dispatcher at once. */
    NOTIFIER_POLL_INTERVAL_MS: positiveInt.min(10).default(1_000),
    /** Deliveries claimed (and sent concurrently) per round. */
    NOTIFIER_BATCH_SIZE: positiveInt.max(1_000).default(32),
    /** Where a notifier without a position starts: latest (pages nothing from before it was deployed) or earliest. */
    NOTIFIER_START_FROM: z.enum(['latest', 'earliest']).default('latest'),
  })
  .refine((s) => s.NOTIFIER_LEASE_MS > s.NOTIFIER_HTTP_TIMEOUT_MS, {
    message: 'must be longer than NOTIFIER_HTTP_TIMEOUT_MS, or a slow request would be sent twice at once',
    path: ['NOTIFIER_LEASE_MS'],
  });

const notifierEnvSchema = z.object({
  TOKENCIRCUIT_NOTIFY_FILE: z.string().min(1),
  DATABASE_URL: databaseUrl,
  EPISODES_TOPIC: z.string().min(1).default(TOPICS.episodes.name),
  NOTIFIER_DLQ_TOPIC: z.string().min(1).default(TOPICS.notifierDlq.name),
  /** Its own consumer group: the notifier reads every episode step whatever other subscribers do. */
  NOTIFIER_GROUP_ID: z.string().min(1).default('tokencircuit-notifier'),
  NOTIFIER_HTTP_PORT: port.default(9466),
  NOTIFIER_HTTP_HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_POOL_SIZE: positiveInt.max(100).default(4),
  LOG_LEVEL: logLevel,
});

export type NotifierSettings = z.infer<typeof notifierSettingsSchema>;
export type NotifierConfig = z.infer<typeof notifierEnvSchema> &
  NotifierSettings & { readonly kafka: KafkaConnection; readonly notify: NotifyConfig };

/** The notifier process's configuration: environment, Kafka connection and the routing file, validated together. */
export function loadNotifierConfig(env: Record<string, string | undefined>): NotifierConfig {
  const parsed = parseEnv(notifierEnvSchema, env);
  return {
    ...parsed,
    ...loadNotifierSettings(env),
    kafka: loadKafkaConnection(env),
    notify: readNotifyFile(parsed.TOKENCIRCUIT_NOTIFY_FILE, env),
  };
}

/** The module's settings alone, for hosts that bring their own ports (the embedded mode). */
export function loadNotifierSettings(env: Record<string, string | undefined>): NotifierSettings {
  return parseEnv(notifierSettingsSchema, env);
}

/**
 * Reads and validates the routing file TOKENCIRCUIT_NOTIFY_FILE names; every problem in one ConfigError
 * (exit code 2 at start), each naming the file and the JSON path, never a secret's value.
 */
export function readNotifyFile(path: string, env: Record<string, string | undefined>): NotifyConfig {
  const at = `TOKENCIRCUIT_NOTIFY_FILE: ${path}`;
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError([`${at}: cannot read it: ${(error as Error).message}`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new ConfigError([`${at}: not JSON: ${(error as Error).message}`]);
  }
  try {
    return loadNotifyConfig(json, env);
  } catch (error) {
    if (error instanceof NotifyConfigError) throw new ConfigError(error.problems.map((p) => `${at}: ${p}`));
    throw error;
  }
}
