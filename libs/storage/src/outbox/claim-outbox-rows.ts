import type { SqlSession } from '../sql-database.js';
import type { DecisionOutboxRow } from '../tables/decision-outbox.js';
import type { StateDelta } from '@tokencircuit/governance';
import { OUTBOX_SNAPSHOT, OUTBOX_SNAPSHOT_JOINS, OUTBOX_STATE_KEY, withDelta } from './outbox-snapshot.js';
import type { StateKeyColumns } from '../state/state-document.js';
import { PENDING_BY_ID } from './pending-by-id.js';

/**
 * A pending outbox row as the relay decides it, with how long it has waited so far. stateSnapshot is the
 * state it refers to when it holds no copy (OUTBOX_SNAPSHOT); null only if that state is gone, which the
 * relay parks.
 */
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
  const { rows } = await tx.query<
    ClaimedOutboxRow & { stateDelta: StateDelta | null; stateKey: StateKeyColumns | null }
  >(
    `SELECT o.id, o.tenant, o.key_id AS "keyId", o.state_version AS "stateVersion",
            ${OUTBOX_SNAPSHOT} AS "stateSnapshot", o.state_delta AS "stateDelta", ${OUTBOX_STATE_KEY} AS "stateKey",
            extract(epoch FROM clock_timestamp() - o.created_at)::float8 AS "waitedSeconds"
       FROM decision_outbox o ${OUTBOX_SNAPSHOT_JOINS}
      WHERE ${ids ? `o.id = ANY($2::text[]) AND ${PENDING_BY_ID}` : 'o.published_at IS NULL AND o.parked_at IS NULL'}
      ORDER BY o.claim_order LIMIT $1 FOR UPDATE OF o SKIP LOCKED`,
    ids ? [limit, ids] : [limit],
  );
  return rows.map(({ stateDelta, stateKey, ...row }) => ({
    ...row,
    stateSnapshot: withDelta(row.stateSnapshot, stateDelta, stateKey),
  }));
}
