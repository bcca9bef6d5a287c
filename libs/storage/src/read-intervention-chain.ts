import type { ChainedIntervention } from './hash-chain.js';
import { INTERVENTION_COLUMNS, toChainedIntervention, type InterventionQueryRow } from './intervention-row.js';
import type { SqlSession } from './sql-database.js';

export interface ChainPage {
  /** Read rows with seq greater than this (0 = from the start). */
  readonly afterSeq?: number;
  readonly limit?: number;
}

/** A tenant's interventions in chain (seq) order; works under withTenant() as well as for the writer. */
export async function readInterventionChain(
  client: SqlSession,
  tenant: string,
  { afterSeq = 0, limit = 1000 }: ChainPage = {},
): Promise<ChainedIntervention[]> {
  const result = await client.query<InterventionQueryRow>(
    `SELECT ${INTERVENTION_COLUMNS} FROM interventions WHERE tenant = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [tenant, afterSeq, limit],
  );
  return result.rows.map(toChainedIntervention);
}
