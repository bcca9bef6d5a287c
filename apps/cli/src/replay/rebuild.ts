import type { TokenCircuitConfig } from '@tokencircuit/governance';
import { decodeCloudEvent, ProjectionPipeline, type DeadLetter } from '@tokencircuit/projection';
import { readStoredEventPage, type SqlDatabase, type SqlSession } from '@tokencircuit/storage';

export const REPLAY_TOPIC = 'tokencircuit.replay';
const REPLAY_GROUP = 'tokencircuit-replay';

export interface RebuildResult {
  readonly events: number;
  readonly projected: number;
  readonly duplicates: number;
  readonly deadLetters: readonly DeadLetter[];
}

/**
 * Feeds the live agent_events, in seq order (the order the live state saw them), a page at a time
 * through the projector's own pipeline into the rebuilt schema: the same decode, the same SQL, one
 * transaction per page. Each stored CloudEvent is decoded as it was read (no Kafka record around it),
 * at a position whose offset is its seq.
 */
export async function rebuild(
  live: SqlSession,
  liveSchema: string,
  target: SqlDatabase,
  policy: TokenCircuitConfig,
  options: { readonly pageSize: number; readonly signal: AbortSignal; readonly onPage: (events: number) => void },
): Promise<RebuildResult> {
  const deadLetters: DeadLetter[] = [];
  const pipeline = new ProjectionPipeline(
    target,
    { send: async (letters) => void deadLetters.push(...letters) },
    policy,
    REPLAY_GROUP,
  );
  let after = '0';
  let events = 0;
  let projected = 0;
  let duplicates = 0;
  for (;;) {
    if (options.signal.aborted) throw new Error('replay interrupted');
    const rows = await readStoredEventPage(live, { schema: liveSchema, after, limit: options.pageSize });
    if (rows.length === 0) break;
    const result = await pipeline.processDecoded(
      rows.map((row) => decodeCloudEvent(row.cloudEvent, { topic: REPLAY_TOPIC, partition: 0, offset: row.position })),
    );
    events += rows.length;
    projected += result.projected;
    duplicates += result.duplicates;
    after = rows[rows.length - 1]!.position;
    options.onPage(rows.length);
  }
  return { events, projected, duplicates, deadLetters };
}
