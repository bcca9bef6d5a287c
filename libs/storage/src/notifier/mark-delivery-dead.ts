import type { SqlSession } from '../sql-database.js';

/** Why a delivery will never be made: refused for good by the receiver, or out of attempts. */
export type DeadDeliveryCause = 'permanent' | 'exhausted';

/** Never to be delivered: kept as 'dead' (the durable record) until the DLQ has it too. */
export async function markDeliveryDead(
  db: SqlSession,
  id: string,
  death: { readonly cause: DeadDeliveryCause; readonly status: number | null; readonly reason: string },
): Promise<void> {
  await db.query(
    `UPDATE notifier_deliveries
        SET status = 'dead', dead_cause = $2, last_status = $3, last_error = $4, claimed_until = NULL, finished_at = now()
      WHERE id = $1`,
    [id, death.cause, death.status, death.reason],
  );
}
