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
  /**
   * Records per Postgres transaction: a partition's batch is cut into chunks of this size, and the smaller chunks
   * of several partitions are gathered up to it (a lone chunk may reach it). A heartbeat follows every chunk.
   * Embedded, the in-process bus hands the projector batches of this size.
   */
  PROJECTOR_CHUNK_SIZE: positiveInt.max(50_000).default(2_000),
  /**
   * Failure states an instance keeps after reading or committing them (CandidateStateCache), so a transaction's
   * candidate load is sent only the documents whose version moved; 0 turns it off. A state is ≈ 1.7 kB of heap (default trace).
   */
  PROJECTOR_STATE_CACHE_KEYS: z.coerce.number().int().min(0).max(1_000_000).default(10_000),
});

const projectorEnvSchema = projectorSettingsSchema.extend({
  DATABASE_URL: databaseUrl,
  DLQ_TOPIC: z.string().min(1).default(TOPICS.agentEventsDlq.name),
  /** Upper bound on one fetch per partition; bounds a batch so it always ends well within the session timeout. */
  PROJECTOR_MAX_BYTES_PER_PARTITION: positiveInt.default(1_048_576),
  /**
   * Partitions of one fetch handed over together, so their chunks can share a transaction (group commit): at a
   * low rate, apart, each paid a transaction's round trips and queued on the others' coordinate locks. The
   * default covers the agent-events topic's 6 partitions.
   */
  PROJECTOR_PARTITIONS_CONCURRENTLY: positiveInt.max(64).default(6),
  /**
   * Transactions one instance runs at once: where they share no coordinate locks, one's Postgres work overlaps
   * the other's decoding and folding.
   */
  PROJECTOR_TRANSACTIONS_IN_FLIGHT: positiveInt.max(16).default(2),
  /**
   * Attempts at a chunk holding a record the dead-letter topic would not take before its partition stops
   * retrying: it is paused and reported stuck, with the reason, in readiness and metrics (never retried forever).
   */
  PROJECTOR_PARKING_ATTEMPTS: positiveInt.max(1_000).default(10),
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
