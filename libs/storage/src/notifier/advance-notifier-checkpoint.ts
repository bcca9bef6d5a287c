import type { SqlSession } from '../sql-database.js';

/** Moves a reader's checkpoint to `position` (an episode_events seq), in the transaction that handled the steps. */
export async function advanceNotifierCheckpoint(tx: SqlSession, source: string, position: string): Promise<void> {
  await tx.query('UPDATE notifier_checkpoints SET position = $2::bigint, updated_at = now() WHERE source = $1', [
    source,
    position,
  ]);
}
