/**
 * Largest record batch a topic accepts by default: the broker's message.max.bytes (1 MiB plus 12 bytes
 * of batch overhead). The agent-events topic pins it so the dead-letter topic can be sized from it.
 */
export const AGENT_EVENTS_MAX_MESSAGE_BYTES = 1_048_588;

/**
 * What a dead-letter copy may add to the record it parks: the reason (at most 1 KiB), the code and the
 * source coordinates as headers, with framing to spare.
 */
export const DLQ_HEADROOM_BYTES = 64 * 1024;

/** The dead-letter topic's max.message.bytes for a source topic accepting `sourceMaxMessageBytes`. */
export function dlqMaxMessageBytes(sourceMaxMessageBytes: number): number {
  return sourceMaxMessageBytes + DLQ_HEADROOM_BYTES;
}

/** How a topic is created: the one definition `topics ensure`, the services at start and the test setup apply. */
export interface TopicDefinition {
  readonly name: string;
  readonly partitions: number;
  /** retention.ms: how long the broker keeps records (-1 = forever). */
  readonly retentionMs: number;
  /** max.message.bytes: the largest record batch the topic accepts. */
  readonly maxMessageBytes: number;
  readonly cleanupPolicy: 'delete' | 'compact';
  /** Topic-level configs the test setup pins (the same values as above, as Kafka config entries). */
  readonly config: Readonly<Record<string, string>>;
  /** max.message.bytes must cover this other topic's (the dead-letter topic must take any record of its source). */
  readonly maxMessageBytesOf?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Kafka topics of the product: partition counts and the topic-level configs they are created with, as
 * data, so every tool that provisions topics (the test setup, `tokencircuit topics ensure`, the services
 * at start) uses one definition; libs/kafka applies the environment's overrides.
 */
export const TOPICS = {
  agentEvents: {
    name: 'tokencircuit.agent-events.v1',
    partitions: 6,
    retentionMs: 7 * DAY_MS,
    maxMessageBytes: AGENT_EVENTS_MAX_MESSAGE_BYTES,
    cleanupPolicy: 'delete',
    config: { 'max.message.bytes': String(AGENT_EVENTS_MAX_MESSAGE_BYTES) },
  },
  agentEventsDlq: {
    name: 'tokencircuit.agent-events.dlq.v1',
    partitions: 1,
    // Parked records wait for a person: keep them longer than the events they came from.
    retentionMs: 30 * DAY_MS,
    maxMessageBytes: dlqMaxMessageBytes(AGENT_EVENTS_MAX_MESSAGE_BYTES),
    cleanupPolicy: 'delete',
    config: { 'max.message.bytes': String(dlqMaxMessageBytes(AGENT_EVENTS_MAX_MESSAGE_BYTES)) },
    maxMessageBytesOf: 'tokencircuit.agent-events.v1',
  },
  interventions: {
    name: 'tokencircuit.interventions.v1',
    partitions: 6,
    retentionMs: 7 * DAY_MS,
    maxMessageBytes: AGENT_EVENTS_MAX_MESSAGE_BYTES,
    cleanupPolicy: 'delete',
    config: {},
  },
  /** Episode lifecycle: triggered, escalated, acknowledged, resolved (docs/adr/0005). */
  episodes: {
    name: 'tokencircuit.episodes.v1',
    partitions: 6,
    retentionMs: 7 * DAY_MS,
    maxMessageBytes: AGENT_EVENTS_MAX_MESSAGE_BYTES,
    cleanupPolicy: 'delete',
    config: {},
  },
  /**
   * Signed audit anchors (docs/audit.md), keyed by tenant. Compacted and never deleted by age: the latest
   * anchor of every tenant stays, outside the database, for `tokencircuit verify` to check the trail against.
   */
  auditAnchors: {
    name: 'tokencircuit.audit-anchors.v1',
    partitions: 1,
    retentionMs: -1,
    maxMessageBytes: AGENT_EVENTS_MAX_MESSAGE_BYTES,
    cleanupPolicy: 'compact',
    config: {},
  },
  /** Notifications that could not be delivered (a permanent refusal or the last attempt spent): docs/notifier.md. */
  notifierDlq: {
    name: 'tokencircuit.notifier.dlq.v1',
    partitions: 1,
    // Undelivered pages wait for a person: kept as long as the agent-events dead letters.
    retentionMs: 30 * DAY_MS,
    maxMessageBytes: AGENT_EVENTS_MAX_MESSAGE_BYTES,
    cleanupPolicy: 'delete',
    config: {},
  },
} as const satisfies Record<string, TopicDefinition>;

export type TopicRole = keyof typeof TOPICS;

/** Kafka message key: all events of one run land on one partition, in order. */
export function partitionKey(tenant: string, run: string | null): string {
  return `${tenant}/${run ?? '*'}`;
}
