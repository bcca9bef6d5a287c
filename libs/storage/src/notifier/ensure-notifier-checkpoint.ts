import type { SqlSession } from '../sql-database.js';

/**
 * Creates the checkpoint of an episode_events reader that has none: at the newest step ('latest', so a new
 * notifier does not page history) or before the first ('earliest'). An existing checkpoint is kept.
 */
export async function ensureNotifierCheckpoint(
  db: SqlSession,
  source: string,
  startFrom: 'latest' | 'earliest',
): Promise<void> {
  await db.query(
    `INSERT INTO notifier_checkpoints (source, position)
     SELECT $1, CASE WHEN $2 = 'latest' THEN COALESCE(max(seq), 0) ELSE 0 END FROM episode_events
     ON CONFLICT (source) DO NOTHING`,
    [source, startFrom],
  );
}
