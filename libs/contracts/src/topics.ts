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

/**
 * Kafka topics of the product: partition counts and the topic-level configs they are created with, as
 * data, so every tool that provisions topics (the test setup, `tokencircuit topics ensure`) uses one
 * definition. `maxMessageBytesOf` says the topic's max.message.bytes must cover another topic's (the
 * dead-letter topic must accept a copy of any record its source accepted), whatever that one is set to.
 */
export const TOPICS = {
  agentEvents: {
    name: 'tokencircuit.agent-events.v1',
    partitions: 6,
    config: { 'max.message.bytes': String(AGENT_EVENTS_MAX_MESSAGE_BYTES) },
  },
  agentEventsDlq: {
    name: 'tokencircuit.agent-events.dlq.v1',
    partitions: 1,
    config: { 'max.message.bytes': String(dlqMaxMessageBytes(AGENT_EVENTS_MAX_MESSAGE_BYTES)) },
    maxMessageBytesOf: 'tokencircuit.agent-events.v1',
  },
  interventions: { name: 'tokencircuit.interventions.v1', partitions: 6, config: {} },
  /** Episode lifecycle: triggered, escalated, acknowledged, resolved (docs/adr/0005). */
  episodes: { name: 'tokencircuit.episodes.v1', partitions: 6, config: {} },
} as const;

/** Kafka message key: all events of one run land on one partition, in order. */
export function partitionKey(tenant: string, run: string | null): string {
  return `${tenant}/${run ?? '*'}`;
}
