/** Kafka topics of the product, with the partition counts they are created with. */
export const TOPICS = {
  agentEvents: { name: 'tokencircuit.agent-events.v1', partitions: 6 },
  agentEventsDlq: { name: 'tokencircuit.agent-events.dlq.v1', partitions: 1 },
  interventions: { name: 'tokencircuit.interventions.v1', partitions: 6 },
  /** Episode lifecycle: triggered, escalated, acknowledged, resolved (docs/adr/0005). */
  episodes: { name: 'tokencircuit.episodes.v1', partitions: 6 },
} as const;

/** Kafka message key: all events of one run land on one partition, in order. */
export function partitionKey(tenant: string, run: string | null): string {
  return `${tenant}/${run ?? '*'}`;
}
