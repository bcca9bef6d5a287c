import { agentEventToCloudEvent, partitionKey, toKafkaRecord, TOPICS, type AgentEvent } from '@tokencircuit/contracts';
import type { TokenCircuitConfig } from '@tokencircuit/governance';
import { ProjectionPipeline, type DeadLetter, type InboundRecord } from '@tokencircuit/projection';
import type { SqlDatabase } from '@tokencircuit/storage';

const PARTITIONS = 4;

const runOf = (event: AgentEvent): string | null =>
  event.type === 'operator.resolution' ? null : event.type === 'verifier.result' ? event.data.run : event.data.call.run;

/**
 * Projects `events` the way the live projector does: Kafka-shaped records (binary CloudEvents, keyed
 * by tenant/run, spread over partitions by key) through the real ProjectionPipeline, in batches.
 * Returns the dead letters (a valid trace has none).
 */
export async function projectTrace(
  db: SqlDatabase,
  events: readonly AgentEvent[],
  policy: TokenCircuitConfig,
  batch = 100,
): Promise<DeadLetter[]> {
  const deadLetters: DeadLetter[] = [];
  const pipeline = new ProjectionPipeline(
    db,
    { send: async (letters) => void deadLetters.push(...letters) },
    policy,
    'cli-replay-spec',
  );
  const offsets = new Array<number>(PARTITIONS).fill(0);
  const records: InboundRecord[] = events.map((event) => {
    const key = partitionKey(event.tenant, runOf(event));
    const partition = [...key].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7) % PARTITIONS;
    const record = toKafkaRecord(agentEventToCloudEvent(event), 'binary', key);
    return {
      topic: TOPICS.agentEvents.name,
      partition,
      offset: String(offsets[partition]!++),
      key: Buffer.from(key),
      value: record.value as Buffer,
      headers: record.headers,
    };
  });
  for (let i = 0; i < records.length; i += batch) await pipeline.process(records.slice(i, i + batch));
  return deadLetters;
}
