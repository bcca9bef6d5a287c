import { readCheckpoints, setCheckpoints, type SqlSession } from '@tokencircuit/storage';
import type { LogOffsets } from './agent-event-source.port.js';

export { readCheckpoints };

/** One partition as the broker and the checkpoint see it. */
export interface PartitionPosition {
  readonly partition: number;
  /** Log start (earliest offset still held). */
  readonly low: bigint;
  /** High watermark (next offset to be written). */
  readonly high: bigint;
  readonly checkpoint: bigint | null;
  /** The checkpoint is past the end of the log: the topic was recreated or the broker's data wiped. */
  readonly reset: boolean;
}

/** The broker's offsets (`logOffsets`, e.g. from a kafkajs admin) next to the Postgres checkpoints of `group` on `topic`. */
export async function partitionPositions(
  db: SqlSession,
  logOffsets: () => Promise<readonly LogOffsets[]>,
  group: string,
  topic: string,
): Promise<PartitionPosition[]> {
  const checkpoints = await readCheckpoints(db, group, topic);
  const offsets = await logOffsets();
  return offsets
    .map(({ partition, low, high }) => {
      const checkpoint = checkpoints.get(partition) ?? null;
      return { partition, low, high, checkpoint, reset: checkpoint !== null && checkpoint > high };
    })
    .sort((a, b) => a.partition - b.partition);
}

/**
 * Moves the checkpoints of `partitions` (default: every partition found reset) to the start of the log the
 * broker holds now, so every record of the new log is applied; returns the partitions and offsets set.
 */
export async function rebaseCheckpoints(
  db: SqlSession,
  logOffsets: () => Promise<readonly LogOffsets[]>,
  group: string,
  topic: string,
  partitions?: readonly number[],
): Promise<Map<number, bigint>> {
  const positions = await partitionPositions(db, logOffsets, group, topic);
  const chosen = positions.filter((p) => (partitions ? partitions.includes(p.partition) : p.reset));
  const next = new Map(chosen.map((p) => [p.partition, p.low]));
  await setCheckpoints(db, group, topic, next);
  return next;
}
