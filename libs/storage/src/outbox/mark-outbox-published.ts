import type { SqlSession } from '../sql-database.js';

/** Marks claimed rows published (counting the attempt): the claim never returns them again. */
export async function markOutboxPublished(tx: SqlSession, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.query(
    `UPDATE decision_outbox SET published_at = now(), attempts = attempts + 1 WHERE id = ANY($1::text[])`,
    [ids],
  );
}
