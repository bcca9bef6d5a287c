import { z } from 'zod';
import { TOPICS } from '@tokencircuit/contracts';
import {
  loadKafkaConnection,
  parseEnv,
  port,
  booleanFlag,
  positiveInt,
  type KafkaConnection,
  databaseUrl,
  logLevel,
  policyFile,
} from '@tokencircuit/config';

/** What the projector module itself needs, whatever its ports are (the embedded mode reads the same). */
const projectorSettingsSchema = z.object({
  PROJECTOR_GROUP_ID: z.string().min(1).default('tokencircuit-projector'),
  AGENT_EVENTS_TOPIC: z.string().min(1).default(TOPICS.agentEvents.name),
  /** How often lag is measured from the broker's high watermarks (and reset partitions looked for). */
  PROJECTOR_WATCH_INTERVAL_MS: positiveInt.min(100).max(600_000).default(5_000),
  /** Readiness fails once a partition's chunk has been failing (retried on infrastructure) this long. */
  PROJECTOR_STUCK_READINESS_SECONDS: positiveInt.default(120),
  /**
   * A topic recreated or a broker wiped (high watermark below the checkpoint) stops the projector unless
   * this is true: then the partition's checkpoint is rebased to the new log's start and it goes on.
   */
  PROJECTOR_REBASE_ON_TOPIC_RESET: booleanFlag.default(false),
  /** Exit the process (code 70) when the consumer stops for good, so a supervisor restarts it. */
  PROJECTOR_EXIT_ON_FATAL: booleanFlag.default(true),
});

const projectorEnvSchema = projectorSettingsSchema.extend({
  DATABASE_URL: databaseUrl,
  DLQ_TOPIC: z.string().min(1).default(TOPICS.agentEventsDlq.name),
  /** Upper bound on one fetch per partition; bounds a batch so it always ends well within the session timeout. */
  PROJECTOR_MAX_BYTES_PER_PARTITION: positiveInt.default(1_048_576),
  /** Records of one partition per Postgres transaction; a heartbeat is sent between a partition's chunks. */
  PROJECTOR_CHUNK_SIZE: positiveInt.max(50_000).default(2_000),
  /**
   * Partitions of one fetch whose chunks are gathered into one transaction (group commit): a transaction holds
   * at most this many chunks. Projected apart, they queued on each other's coordinate locks and each paid the
   * transaction's round trips. The default covers the agent-events topic's 6 partitions.
   */
  PROJECTOR_PARTITIONS_CONCURRENTLY: positiveInt.max(64).default(6),
  PROJECTOR_SESSION_TIMEOUT_MS: positiveInt.min(6_000).default(30_000),
  PROJECTOR_HTTP_PORT: port.default(9464),
  PROJECTOR_HTTP_HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_POOL_SIZE: positiveInt.max(100).default(4),
  TOKENCIRCUIT_POLICY_FILE: policyFile,
  LOG_LEVEL: logLevel,
});

export type ProjectorSettings = z.infer<typeof projectorSettingsSchema>;
export type ProjectorConfig = z.infer<typeof projectorEnvSchema> & { readonly kafka: KafkaConnection };

/** Validated once at start; a ConfigError lists every variable to fix. */
export function loadProjectorConfig(env: Record<string, string | undefined>): ProjectorConfig {
  return { ...parseEnv(projectorEnvSchema, env), kafka: loadKafkaConnection(env) };
}

/** The module's settings alone, for hosts that bring their own ports (the embedded mode). */
export function loadProjectorSettings(env: Record<string, string | undefined>): ProjectorSettings {
  return parseEnv(projectorSettingsSchema, env);
}
