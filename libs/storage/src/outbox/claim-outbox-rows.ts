import type { SqlSession } from '../sql-database.js';
import type { DecisionOutboxRow } from '../tables/decision-outbox.js';
import { PENDING_BY_ID } from './pending-by-id.js';

/** A pending outbox row as the relay decides it, with how long it has waited so far. */
export type ClaimedOutboxRow = Pick<DecisionOutboxRow, 'id' | 'tenant' | 'keyId' | 'stateVersion' | 'stateSnapshot'> & {
  readonly waitedSeconds: number;
};

/**
 * Locks up to `limit` pending rows (neither published nor parked) until the transaction ends, oldest first.
 * SKIP LOCKED lets relay instances share the work. `ids`: only those rows (the ids a notification named),
 * found by primary key; without it the claim walks the pending index from the oldest row, which also passes
 * the entries of published rows not yet vacuumed.
 */
export async function claimOutboxRows(
  tx: SqlSession,
  { limit, ids }: { readonly limit: number; readonly ids?: readonly string[] },
): Promise<ClaimedOutboxRow[]> {
  const { rows } = await tx.query<ClaimedOutboxRow>(
    `SELECT id, tenant, key_id AS "keyId", state_version AS "stateVersion", state_snapshot AS "stateSnapshot",
            extract(epoch FROM clock_timestamp() - created_at)::float8 AS "waitedSeconds"
       FROM decision_outbox
      WHERE ${ids ? `id = ANY($2::text[]) AND ${PENDING_BY_ID}` : 'published_at IS NULL AND parked_at IS NULL'}
      ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
    ids ? [limit, ids] : [limit],
  );
  return rows;
}
