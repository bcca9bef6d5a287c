import type { SqlSession } from '../sql-database.js';

/**
 * Deletes up to `limit` rows published more than `olderThanHours` ago, oldest first, and keeps their ids in
 * decision_outbox_purged in the same statement (replay verification counts those as live): every transition's,
 * the row's own and those of its `earlier` ones (migration 0053). Pending and
 * parked rows are never touched, nor a row whose state rows of earlier versions still wait on (a delta row's
 * base, migration 0047: the projector keeps that state for them only while it can find this row). Returns how
 * many went.
 */
export async function purgePublishedOutbox(
  db: SqlSession,
  { olderThanHours, limit }: { readonly olderThanHours: number; readonly limit: number },
): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH expired AS (
       DELETE FROM decision_outbox WHERE id IN (
         SELECT id FROM decision_outbox o
          WHERE published_at IS NOT NULL AND published_at < now() - make_interval(hours => $1)
            AND (o.dependents_from IS NULL OR NOT EXISTS (
                 SELECT 1 FROM decision_outbox d
                  WHERE d.id = ANY (ARRAY(SELECT o.key_id || '@v' || g
                                            FROM generate_series(o.dependents_from, o.state_version - 1) g))
                    AND d.published_at IS NULL))
          ORDER BY published_at LIMIT $2)
       RETURNING id, tenant, key_id, earlier),
     kept AS (
       INSERT INTO decision_outbox_purged (id, tenant)
       SELECT id, tenant FROM expired
       UNION ALL
       SELECT key_id || '@v' || (e ->> 0), tenant FROM expired, json_array_elements(earlier) AS e
       ON CONFLICT (id) DO NOTHING)
     SELECT count(*)::int AS n FROM expired`,
    [olderThanHours, limit],
  );
  return rows[0]?.n ?? 0;
}
