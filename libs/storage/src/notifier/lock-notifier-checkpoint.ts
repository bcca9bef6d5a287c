import type { SqlSession } from '../sql-database.js';

/**
 * The episode_events seq a reader has handled through (text: a bigint), locked until the transaction ends so
 * two readers of one source never handle the same steps; '0' when the source has no checkpoint.
 */
export async function lockNotifierCheckpoint(tx: SqlSession, source: string): Promise<string> {
  const { rows } = await tx.query<{ position: string }>(
    'SELECT position::text FROM notifier_checkpoints WHERE source = $1 FOR UPDATE',
    [source],
  );
  return rows[0]?.position ?? '0';
}
