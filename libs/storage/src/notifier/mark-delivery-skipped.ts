import type { SqlSession } from '../sql-database.js';

/** Nothing to send for this step on this sink: finished without a request, the queue behind it moves on. */
export async function markDeliverySkipped(db: SqlSession, id: string): Promise<void> {
  await db.query(
    `UPDATE notifier_deliveries SET status = 'skipped', claimed_until = NULL, finished_at = now() WHERE id = $1`,
    [id],
  );
}
