import type { SqlSession } from '../sql-database.js';

/** Rows waiting for the relay (neither published nor parked): the decision service's backlog gauge. */
export async function countPendingOutbox(db: SqlSession): Promise<number> {
  const { rows } = await db.query<{ depth: string }>(
    'SELECT count(*)::text AS depth FROM decision_outbox WHERE published_at IS NULL AND parked_at IS NULL',
  );
  return Number(rows[0]?.depth ?? 0);
}
