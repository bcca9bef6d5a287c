import type { SqlSession } from '../sql-database.js';

/** The newest audit-trail row the session sees: keep its hash outside the database to detect a truncated tail. */
export interface ChainTip {
  readonly seq: number;
  readonly hash: string;
}

/** Under withTenant this is the tenant's chain head; null when the tenant has no intervention. */
export async function readChainTip(session: SqlSession): Promise<ChainTip | null> {
  const { rows } = await session.query<{ seq: string; hash: string }>(
    'SELECT seq::text AS seq, hash FROM interventions ORDER BY interventions.seq DESC LIMIT 1',
  );
  const row = rows[0];
  return row ? { seq: Number(row.seq), hash: row.hash } : null;
}
