import type { SqlSession } from '../sql-database.js';

/** A retriable failure with attempts left: the claim is given up and the delivery is due again after `delayMs`. */
export async function scheduleDeliveryRetry(
  db: SqlSession,
  id: string,
  failure: { readonly status: number | null; readonly reason: string; readonly delayMs: number },
): Promise<void> {
  await db.query(
    `UPDATE notifier_deliveries
        SET last_status = $2, last_error = $3, claimed_until = NULL, next_attempt_at = now() + $4 * interval '1 millisecond'
      WHERE id = $1`,
    [id, failure.status, failure.reason, failure.delayMs],
  );
}
