import type { SqlSession } from '../sql-database.js';

/** One sink's backlog: pending deliveries, and how long the oldest has waited. */
export interface SinkBacklog {
  readonly sink: string;
  readonly depth: number;
  readonly oldestSeconds: number;
}

/** Pending deliveries per sink that has any (metrics); a sink with none is absent. */
export async function pendingDeliveriesBySink(db: SqlSession): Promise<SinkBacklog[]> {
  const { rows } = await db.query<{ sink: string; depth: string; oldest: string | number }>(
    `SELECT sink, count(*)::text AS depth, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0) AS oldest
       FROM notifier_deliveries WHERE status = 'pending' GROUP BY sink ORDER BY sink`,
  );
  return rows.map((r) => ({ sink: r.sink, depth: Number(r.depth), oldestSeconds: Number(r.oldest) }));
}
