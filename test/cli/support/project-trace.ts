import { partitionKey, runOfEvent, TOPICS, type AgentEvent } from '@tokencircuit/contracts';
import { consumedRecord } from '@tokencircuit/contracts/testing';
import type { TokenCircuitConfig } from '@tokencircuit/governance';
import { ProjectionPipeline, type DeadLetter, type InboundRecord } from '@tokencircuit/projection';
import type { SqlDatabase } from '@tokencircuit/storage';

const PARTITIONS = 4;

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
    const key = partitionKey(event.tenant, runOfEvent(event));
    const partition = [...key].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7) % PARTITIONS;
    return consumedRecord(event, { topic: TOPICS.agentEvents.name, partition, offset: String(offsets[partition]!++) });
  });
  for (let i = 0; i < records.length; i += batch) await pipeline.process(records.slice(i, i + batch));
  return deadLetters;
}
