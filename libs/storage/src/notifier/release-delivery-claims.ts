import type { SqlSession } from '../sql-database.js';

/** Gives claims back untouched (not attempted: e.g. beyond a half-open breaker's one trial); due again at once. */
export async function releaseDeliveryClaims(db: SqlSession, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `UPDATE notifier_deliveries SET claimed_until = NULL, attempts = attempts - 1
      WHERE id = ANY($1::text[]) AND status = 'pending'`,
    [ids],
  );
}
