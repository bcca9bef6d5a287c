import { queryPreparedIfAble, type SqlSession } from './sql-database.js';

/** One row of projector_checkpoints: where a consumer group really is on a partition. */
export interface CheckpointRow {
  readonly group: string;
  readonly topic: string;
  readonly partition: number;
  /** Next offset to apply. */
  readonly next: bigint;
  readonly updatedAt: string;
}

export interface ReadCheckpointsOptions {
  /** Only these partitions (default: every partition of the topic). */
  readonly partitions?: readonly number[];
  /**
   * Row-locks the checkpoints read (inside a transaction): the projector's write path reads where the
   * group really is and holds it until its batch commits, so two instances never apply the same records.
   */
  readonly forUpdate?: boolean;
}

/**
 * The checkpoints of `group` on `topic`, by partition: the one reader of projector_checkpoints.next_offset
 * (start-up seeks, lag, rebase, and the projector's locked read inside each batch).
 */
export async function readCheckpoints(
  db: SqlSession,
  group: string,
  topic: string,
  options: ReadCheckpointsOptions = {},
): Promise<Map<number, bigint>> {
  const { partitions, forUpdate = false } = options;
  // Prepared per variant: the locked read runs once in every projector transaction.
  const { rows } = await queryPreparedIfAble<{ partition: number; next_offset: string }>(
    db,
    `read-checkpoints${partitions ? ':partitions' : ''}${forUpdate ? ':for-update' : ''}`,
    'SELECT partition, next_offset::text AS next_offset FROM projector_checkpoints WHERE consumer_group = $1 AND topic = $2' +
      (partitions ? ' AND partition = ANY($3::int[])' : '') +
      (forUpdate ? ' FOR UPDATE' : ''),
    partitions ? [group, topic, partitions] : [group, topic],
  );
  return new Map(rows.map((r) => [r.partition, BigInt(r.next_offset)]));
}

/** Every checkpoint (optionally of one group), for operators. */
export async function listCheckpoints(db: SqlSession, group?: string): Promise<CheckpointRow[]> {
  const { rows } = await db.query<{
    consumer_group: string;
    topic: string;
    partition: number;
    next_offset: string;
    updated_at: Date | string;
  }>(
    `SELECT consumer_group, topic, partition, next_offset::text AS next_offset, updated_at FROM projector_checkpoints
      WHERE $1::text IS NULL OR consumer_group = $1 ORDER BY consumer_group, topic, partition`,
    [group ?? null],
  );
  return rows.map((r) => ({
    group: r.consumer_group,
    topic: r.topic,
    partition: r.partition,
    next: BigInt(r.next_offset),
    updatedAt: new Date(r.updated_at).toISOString(),
  }));
}

/**
 * Sets checkpoints to exactly these offsets, backwards included (the projector itself only ever moves
 * them forward): an operator's rebase after a topic was recreated or a broker wiped.
 */
export async function setCheckpoints(
  db: SqlSession,
  group: string,
  topic: string,
  next: ReadonlyMap<number, bigint>,
): Promise<void> {
  if (next.size === 0) return;
  await db.query(
    `INSERT INTO projector_checkpoints (consumer_group, topic, partition, next_offset, updated_at)
     SELECT $1, $2, p, o, now() FROM unnest($3::int[], $4::bigint[]) AS t(p, o)
     ON CONFLICT (consumer_group, topic, partition) DO UPDATE SET next_offset = EXCLUDED.next_offset, updated_at = now()`,
    [group, topic, [...next.keys()], [...next.values()].map(String)],
  );
}
