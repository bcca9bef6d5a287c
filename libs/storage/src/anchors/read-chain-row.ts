import type { SqlSession } from '../sql-database.js';
import type { ChainHead } from './audit-anchor.js';

/** The tenant's intervention with this seq (null when there is none). */
export async function chainRowAt(session: SqlSession, tenant: string, seq: number): Promise<ChainHead | null> {
  const { rows } = await session.query<{ seq: string; hash: string }>(
    'SELECT seq::text AS seq, hash FROM interventions WHERE tenant = $1 AND seq = $2::bigint',
    [tenant, seq],
  );
  return rows[0] ? { seq: Number(rows[0].seq), hash: rows[0].hash } : null;
}
