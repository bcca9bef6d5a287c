import type { SqlSession } from '../sql-database.js';
import type { ChainHead } from './audit-anchor.js';

/** The newest intervention of each tenant (absent from the map when the tenant has none). */
export async function chainHeads(session: SqlSession, tenants: readonly string[]): Promise<Map<string, ChainHead>> {
  if (tenants.length === 0) return new Map();
  const { rows } = await session.query<{ tenant: string; seq: string | null; hash: string | null }>(
    `SELECT t.tenant, head.seq::text AS seq, head.hash
       FROM unnest($1::text[]) AS t(tenant)
       JOIN LATERAL (SELECT seq, hash FROM interventions i WHERE i.tenant = t.tenant ORDER BY seq DESC LIMIT 1) AS head
         ON true`,
    [tenants],
  );
  return new Map(rows.map((r) => [r.tenant, { seq: Number(r.seq), hash: r.hash! }]));
}
