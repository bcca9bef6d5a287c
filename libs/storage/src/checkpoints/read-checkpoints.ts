import { queryPreparedIfAble, type InlineStatement, type SqlSession } from '../sql-database.js';
import { sqlIntArray, sqlLiteral } from '../sql-literal.js';

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

/**
 * The projector's locked read of its partitions' checkpoints (readCheckpoints with forUpdate) written inline, to
 * open its transaction: sent with the BEGIN (transactionOpenedBy), a round trip less per transaction.
 */
export function lockedCheckpointsOpening(
  group: string,
  topic: string,
  partitions: readonly number[],
): InlineStatement<Map<number, bigint>> {
  return {
    text:
      'SELECT partition, next_offset::text AS next_offset FROM projector_checkpoints' +
      ` WHERE consumer_group = ${sqlLiteral(group)} AND topic = ${sqlLiteral(topic)}` +
      ` AND partition = ANY(${sqlIntArray(partitions)}) FOR UPDATE`,
    read: (rows) =>
      new Map((rows as { partition: number; next_offset: string }[]).map((r) => [r.partition, BigInt(r.next_offset)])),
  };
}
