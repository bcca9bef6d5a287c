import type { SqlSession } from '../sql-database.js';

/**
 * Deletes up to `limit` rows published more than `olderThanHours` ago, oldest first, and keeps their ids in
 * decision_outbox_purged in the same statement (replay verification counts those as live). Pending and
 * parked rows are never touched. Returns how many went.
 */
export async function purgePublishedOutbox(
  db: SqlSession,
  { olderThanHours, limit }: { readonly olderThanHours: number; readonly limit: number },
): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH expired AS (
       DELETE FROM decision_outbox WHERE id IN (
         SELECT id FROM decision_outbox
          WHERE published_at IS NOT NULL AND published_at < now() - make_interval(hours => $1)
          ORDER BY published_at LIMIT $2)
       RETURNING id, tenant),
     kept AS (
       INSERT INTO decision_outbox_purged (id, tenant) SELECT id, tenant FROM expired
       ON CONFLICT (id) DO NOTHING)
     SELECT count(*)::int AS n FROM expired`,
    [olderThanHours, limit],
  );
  return rows[0]?.n ?? 0;
}
