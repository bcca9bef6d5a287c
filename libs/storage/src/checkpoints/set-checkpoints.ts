import type { SqlSession } from '../sql-database.js';

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
