import { openValidatedAuditBatch, type AppendResult } from './audit-batch.js';
import { toHashableIntervention, type NewIntervention } from './new-intervention.js';
import type { SqlSession } from './sql-database.js';

export type { AppendResult } from './audit-batch.js';

/**
 * Appends interventions to their tenants' hash chains, in three statements whatever the batch's size
 * (openAuditBatch without episode steps): the tenants' chain locks, the ids already stored with the chain
 * heads, one INSERT. The rows, their order
 * and their hashes are exactly those of appending the inputs one by one in the given order (an id
 * already stored, or repeated in the batch, is returned with appended: false: republishing is
 * idempotent), so the decision service records a whole relay round without round trips per intervention.
 *
 * Appends of one tenant are serialised by a transaction-level advisory lock, so concurrent writers still
 * produce one linear chain (the UNIQUE NULLS NOT DISTINCT (tenant, prev_hash) constraint would refuse a
 * fork anyway). Locks are taken in one global order (by lock key), so two writers whose batches span the
 * same tenants queue instead of deadlocking. Run it inside the caller's transaction (so the append commits
 * or rolls back with the caller's other writes), READ COMMITTED, so the heads are read after the locks are
 * granted; a bare pg client that is not in a transaction gets one of its own.
 */
export async function appendInterventions(
  client: SqlSession,
  inputs: readonly NewIntervention[],
): Promise<AppendResult[]> {
  const contents = inputs.map(toHashableIntervention);
  if (contents.length === 0) return [];
  const status = (client as { getTransactionStatus?: () => string | null }).getTransactionStatus?.();
  if (status === 'E') {
    throw new Error('appendInterventions: the transaction has already failed; roll it back before appending');
  }
  if (status !== 'I' && status !== null) return appendAllLocked(client, contents);
  await client.query('BEGIN');
  try {
    const results = await appendAllLocked(client, contents);
    await client.query('COMMIT');
    return results;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

const appendAllLocked = async (
  client: SqlSession,
  contents: Parameters<typeof openValidatedAuditBatch>[1],
): Promise<AppendResult[]> => (await openValidatedAuditBatch(client, contents, [])).write([]);
