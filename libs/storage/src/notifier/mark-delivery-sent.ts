import type { SqlSession } from '../sql-database.js';

/** The receiver took it (`status`: its HTTP status): finished, the queue behind it moves on. */
export async function markDeliverySent(db: SqlSession, id: string, status: number): Promise<void> {
  await db.query(
    `UPDATE notifier_deliveries SET status = 'sent', last_status = $2, last_error = NULL, claimed_until = NULL, finished_at = now()
      WHERE id = $1`,
    [id, status],
  );
}
