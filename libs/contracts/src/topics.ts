import { LIMITS } from './limits.js';

/** How a topic is created: the one definition `topics ensure` and the services at start both apply. */
export interface TopicDefinition {
  readonly name: string;
  readonly partitions: number;
  /** retention.ms: how long the broker keeps records (-1 = forever). */
  readonly retentionMs: number;
  /** max.message.bytes: the largest record batch the topic accepts. */
  readonly maxMessageBytes: number;
  readonly cleanupPolicy: 'delete' | 'compact';
}

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * max.message.bytes of the event topics (Kafka's own default, 1 MiB): an event is at most LIMITS.eventBytes
 * (64 KiB), so a producer batch holds several events with their CloudEvents headers.
 */
const EVENT_RECORD_BYTES = 16 * LIMITS.eventBytes;
/**
 * A dead letter carries the refused record whole, plus headers naming its reason and source position:
 * its topic must accept more than the source topic, or the record that failed there could not be parked.
 */
const DEAD_LETTER_HEADROOM_BYTES = 64 * 1024;

/** Kafka topics of the product: names, partition counts and the topic configs they are created with. */
export const TOPICS = {
  agentEvents: {
    name: 'tokencircuit.agent-events.v1',
    partitions: 6,
    retentionMs: 7 * DAY_MS,
    maxMessageBytes: EVENT_RECORD_BYTES,
    cleanupPolicy: 'delete',
  },
  agentEventsDlq: {
    name: 'tokencircuit.agent-events.dlq.v1',
    partitions: 1,
    // Parked records wait for a person: keep them longer than the events they came from.
    retentionMs: 30 * DAY_MS,
    maxMessageBytes: EVENT_RECORD_BYTES + DEAD_LETTER_HEADROOM_BYTES,
    cleanupPolicy: 'delete',
  },
  interventions: {
    name: 'tokencircuit.interventions.v1',
    partitions: 6,
    retentionMs: 7 * DAY_MS,
    maxMessageBytes: EVENT_RECORD_BYTES,
    cleanupPolicy: 'delete',
  },
  /** Episode lifecycle: triggered, escalated, acknowledged, resolved (docs/adr/0005). */
  episodes: {
    name: 'tokencircuit.episodes.v1',
    partitions: 6,
    retentionMs: 7 * DAY_MS,
    maxMessageBytes: EVENT_RECORD_BYTES,
    cleanupPolicy: 'delete',
  },
} as const satisfies Record<string, TopicDefinition>;

export type TopicRole = keyof typeof TOPICS;

/** Kafka message key: all events of one run land on one partition, in order. */
export function partitionKey(tenant: string, run: string | null): string {
  return `${tenant}/${run ?? '*'}`;
}
