import type { SqlSession } from '../sql-database.js';

/** The DLQ has these dead deliveries: readUnpublishedDeadLetters no longer returns them. */
export async function markDeadLettersPublished(db: SqlSession, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(`UPDATE notifier_deliveries SET dlq_published_at = now() WHERE id = ANY($1::text[])`, [ids]);
}
