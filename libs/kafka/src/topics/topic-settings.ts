import { z } from 'zod';
import { ConfigError, parseEnv, positiveInt } from '@tokencircuit/config';
import { dlqMaxMessageBytes, TOPICS, type TopicDefinition, type TopicRole } from '@tokencircuit/contracts';

/** Every topic of the product as this deployment wants it, and how start-up treats a missing one. */
export interface TopicSettings {
  readonly topics: Readonly<Record<TopicRole, TopicDefinition>>;
  /** null = min(3, brokers in the cluster), decided when a topic is created. */
  readonly replicationFactor: number | null;
  /** create: make missing topics; validate: a missing topic stops the start (topics are provisioned elsewhere). */
  readonly mode: 'create' | 'validate';
  /** How long start-up waits for Kafka to answer before it gives up with one line. */
  readonly connectTimeoutMs: number;
}

const retention = z.coerce.number().int().min(-1);

const topicEnvSchema = z.object({
  AGENT_EVENTS_TOPIC: z.string().min(1).default(TOPICS.agentEvents.name),
  DLQ_TOPIC: z.string().min(1).default(TOPICS.agentEventsDlq.name),
  INTERVENTIONS_TOPIC: z.string().min(1).default(TOPICS.interventions.name),
  EPISODES_TOPIC: z.string().min(1).default(TOPICS.episodes.name),
  AUDIT_ANCHORS_TOPIC: z.string().min(1).default(TOPICS.auditAnchors.name),
  NOTIFIER_DLQ_TOPIC: z.string().min(1).default(TOPICS.notifierDlq.name),
  KAFKA_TOPIC_PARTITIONS: positiveInt.default(TOPICS.agentEvents.partitions),
  KAFKA_DLQ_PARTITIONS: positiveInt.default(TOPICS.agentEventsDlq.partitions),
  KAFKA_REPLICATION_FACTOR: positiveInt.optional(),
  KAFKA_TOPIC_RETENTION_MS: retention.default(TOPICS.agentEvents.retentionMs),
  KAFKA_DLQ_RETENTION_MS: retention.default(TOPICS.agentEventsDlq.retentionMs),
  KAFKA_MAX_MESSAGE_BYTES: positiveInt.default(TOPICS.agentEvents.maxMessageBytes),
  KAFKA_DLQ_MAX_MESSAGE_BYTES: positiveInt.optional(),
  KAFKA_TOPICS: z.enum(['create', 'validate']).default('create'),
  KAFKA_CONNECT_TIMEOUT_MS: positiveInt.default(10_000),
});

/**
 * The topic definitions of libs/contracts with this environment's overrides. The dead-letter topic
 * must accept at least what its source accepts (a record refused there must fit here): by default it
 * keeps the contracts' headroom above KAFKA_MAX_MESSAGE_BYTES, and a smaller explicit value is refused.
 */
export function loadTopicSettings(env: Record<string, string | undefined>): TopicSettings {
  const e = parseEnv(topicEnvSchema, env);
  const dlqBytes = e.KAFKA_DLQ_MAX_MESSAGE_BYTES ?? dlqMaxMessageBytes(e.KAFKA_MAX_MESSAGE_BYTES);
  if (dlqBytes < e.KAFKA_MAX_MESSAGE_BYTES) {
    throw new ConfigError([
      `KAFKA_DLQ_MAX_MESSAGE_BYTES: must be at least KAFKA_MAX_MESSAGE_BYTES (${e.KAFKA_MAX_MESSAGE_BYTES}), or a record refused by the source topic could not be parked (got "${dlqBytes}")`,
    ]);
  }
  const events = (base: TopicDefinition, name: string): TopicDefinition => ({
    name,
    partitions: e.KAFKA_TOPIC_PARTITIONS,
    retentionMs: e.KAFKA_TOPIC_RETENTION_MS,
    maxMessageBytes: e.KAFKA_MAX_MESSAGE_BYTES,
    cleanupPolicy: base.cleanupPolicy,
    config: { 'max.message.bytes': String(e.KAFKA_MAX_MESSAGE_BYTES) },
  });
  return {
    topics: {
      agentEvents: events(TOPICS.agentEvents, e.AGENT_EVENTS_TOPIC),
      agentEventsDlq: {
        name: e.DLQ_TOPIC,
        partitions: e.KAFKA_DLQ_PARTITIONS,
        retentionMs: e.KAFKA_DLQ_RETENTION_MS,
        maxMessageBytes: dlqBytes,
        cleanupPolicy: TOPICS.agentEventsDlq.cleanupPolicy,
        config: { 'max.message.bytes': String(dlqBytes) },
        maxMessageBytesOf: e.AGENT_EVENTS_TOPIC,
      },
      interventions: events(TOPICS.interventions, e.INTERVENTIONS_TOPIC),
      episodes: events(TOPICS.episodes, e.EPISODES_TOPIC),
      // Not sized by the events' overrides: one small record per tenant, compacted, kept forever.
      auditAnchors: { ...TOPICS.auditAnchors, name: e.AUDIT_ANCHORS_TOPIC },
      // A dead letter is an episode step plus a few fields: it fits wherever the step did.
      notifierDlq: {
        name: e.NOTIFIER_DLQ_TOPIC,
        partitions: TOPICS.notifierDlq.partitions,
        retentionMs: e.KAFKA_DLQ_RETENTION_MS,
        maxMessageBytes: e.KAFKA_MAX_MESSAGE_BYTES,
        cleanupPolicy: TOPICS.notifierDlq.cleanupPolicy,
        config: { 'max.message.bytes': String(e.KAFKA_MAX_MESSAGE_BYTES) },
      },
    },
    replicationFactor: e.KAFKA_REPLICATION_FACTOR ?? null,
    mode: e.KAFKA_TOPICS,
    connectTimeoutMs: e.KAFKA_CONNECT_TIMEOUT_MS,
  };
}
